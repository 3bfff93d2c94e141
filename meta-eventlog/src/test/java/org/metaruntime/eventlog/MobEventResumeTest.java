package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.MobEventProjector;
import org.metaruntime.events.MobEventQuery;
import org.metaruntime.events.MobStructuralEventEnvelope;
import org.metaruntime.events.PersistentMetadataStore;
import org.metaruntime.events.Subscription;

/**
 * The structural subscriber across restarts with one state directory: the cursor in
 * {@code meta_metadata.sqlite3}, the events in {@code event_log.sqlite3}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MobEventResumeTest {

    @TempDir
    Path dir;

    private static List<Long> cursors(List<MobStructuralEventEnvelope> events) {
        return events.stream().map(MobStructuralEventEnvelope::cursor).toList();
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    @Test
    void aRestartWithTheSameStateDirectoryNeitherRepeatsNorSkips() {
        Ledger ledger = new Ledger();
        ledger.append(5);
        try (PersistentMetadataStore metadata = MetadataStores.persistentState(dir);
             EventLog log = EventLogs.persistentState(dir);
             MobEventProjector mobs = MobEventProjector.start(ledger, metadata, log)) {
            assertThat(mobs.resumedFromSaved()).isFalse();
            assertThat(mobs.resumedAfter()).isEqualTo(5);
            ledger.append(5);
            assertThat(mobs.lastCursor()).isEqualTo(10);
        }
        ledger.append(5);
        List<Long> before = ledger.delivered();
        try (PersistentMetadataStore metadata = MetadataStores.persistentState(dir);
             EventLog log = EventLogs.persistentState(dir);
             MobEventProjector mobs = MobEventProjector.start(ledger, metadata, log)) {
            assertThat(mobs.resumedFromSaved()).isTrue();
            assertThat(mobs.resumedAfter()).isEqualTo(10);
            List<Long> afterRestart = ledger.delivered().subList(before.size(), ledger.delivered().size());
            assertThat(afterRestart).isEqualTo(range(11, 15));
            List<MobStructuralEventEnvelope> live = new CopyOnWriteArrayList<>();
            try (Subscription sub = mobs.subscribeMobEvents(live::add)) {
                ledger.append(1);
            }
            assertThat(cursors(live)).containsExactly(16L);
            assertThat(cursors(mobs.mobEvents(MobEventQuery.all()).events())).isEqualTo(range(6, 16));
            assertThat(mobs.mobEvents(new MobEventQuery(null, "member_spawned", null, -1, 100)).events())
                    .extracting(MobStructuralEventEnvelope::eventId)
                    .containsExactly("mob-evt-6", "mob-evt-9", "mob-evt-12", "mob-evt-15");
        }
    }

    @Test
    void withoutALogTheEventsInMemoryAfterARestartAreExactlyTheMissedOnes() {
        Ledger ledger = new Ledger();
        try (PersistentMetadataStore metadata = MetadataStores.persistentState(dir);
             MobEventProjector mobs = MobEventProjector.start(ledger, metadata, null)) {
            ledger.append(7);
            assertThat(cursors(mobs.mobEvents(MobEventQuery.all()).events())).isEqualTo(range(1, 7));
        }
        ledger.append(4);
        try (PersistentMetadataStore metadata = MetadataStores.persistentState(dir);
             MobEventProjector mobs = MobEventProjector.start(ledger, metadata, null)) {
            assertThat(cursors(mobs.mobEvents(MobEventQuery.all()).events())).isEqualTo(range(8, 11));
        }
    }

    @Test
    void aStaleCursorFallsBackToTheLatest() {
        Ledger ledger = new Ledger();
        try (PersistentMetadataStore metadata = MetadataStores.persistentState(dir)) {
            metadata.put(MobEventProjector.CURSOR_KEY, "3");
        }
        ledger.append(60);
        ledger.forgetBefore(50);
        try (PersistentMetadataStore metadata = MetadataStores.persistentState(dir);
             EventLog log = EventLogs.persistentState(dir);
             MobEventProjector mobs = MobEventProjector.start(ledger, metadata, log)) {
            assertThat(mobs.resumedFromSaved()).isFalse();
            assertThat(mobs.resumedAfter()).isEqualTo(60);
            assertThat(mobs.mobEvents(MobEventQuery.all()).events()).isEmpty();
            ledger.append(2);
            assertThat(cursors(mobs.mobEvents(MobEventQuery.all()).events())).containsExactly(61L, 62L);
            assertThat(metadata.get(MobEventProjector.CURSOR_KEY)).contains("62");
        }
    }

    @Test
    void theCursorIsSavedOnlyAfterTheEventIsProjectedAndCommitted() {
        Ledger ledger = new Ledger();
        try (PersistentMetadataStore metadata = MetadataStores.persistentState(dir);
             EventLog log = EventLogs.persistentState(dir);
             MobEventProjector mobs = MobEventProjector.start(ledger, metadata, log)) {
            List<String> checks = new CopyOnWriteArrayList<>();
            try (Subscription sub = mobs.subscribeMobEvents(e -> {
                String saved = metadata.get(MobEventProjector.CURSOR_KEY).orElse("none");
                boolean logged = cursors(log.mobEvents(MobEventQuery.all()).events()).contains(e.cursor());
                checks.add(e.cursor() + ":" + saved + ":" + logged);
            })) {
                ledger.append(3);
            }
            assertThat(checks).containsExactly("1:1:true", "2:2:true", "3:3:true");
        }
    }

    @Test
    void theMetadataStoreKeepsValuesAcrossReopen() {
        try (PersistentMetadataStore metadata = MetadataStores.persistentState(dir)) {
            assertThat(metadata.get("k")).isEmpty();
            metadata.put("k", "v1");
            metadata.put("k", "v2 ✓");
        }
        assertThat(dir.resolve("meta_metadata.sqlite3")).exists();
        try (PersistentMetadataStore metadata = MetadataStores.persistentState(dir)) {
            assertThat(metadata.get("k")).contains("v2 ✓");
        }
    }
}
