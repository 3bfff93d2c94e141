package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.events.EventCodec;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.MobEvent;
import org.metaruntime.events.MobEventQuery;
import org.metaruntime.events.MobStructuralEventEnvelope;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.spi.MobEventSource;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/** A runtime with {@code persistentState}: the merged envelopes in the event log, mob events resumed. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RuntimeEventLogTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final List<UnifiedRuntime> runtimes = new ArrayList<>();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pids"));

    @AfterEach
    void close() {
        runtimes.forEach(UnifiedRuntime::close);
    }

    private UnifiedRuntime start(UnifiedRuntime.Builder builder) {
        UnifiedRuntime runtime = builder.start();
        runtimes.add(runtime);
        return runtime;
    }

    private UnifiedRuntime.Builder builder() {
        MetaConfig config = MetaConfig.builder()
                .module(ModuleConfig.builder("weather").command(FixtureScripts.eventLineModuleCommand("weather"))
                        .env("FIXTURE_PIDFILE", dir.resolve("pids").toString()).env("FIXTURE_MODE", "ok").build())
                .discover("weather").build();
        return UnifiedRuntime.builder(config).options(RuntimeOptions.builder().startupTimeout(T).shutdownHook(false)
                .build());
    }

    private static List<LoggedEvent> all(EventLog log) {
        List<LoggedEvent> rows = new ArrayList<>();
        EventQuery q = EventQuery.builder().limit(1_000).build();
        EventPage page = log.query(q);
        rows.addAll(page.events());
        while (page.nextAfterSeq() != null) {
            page = log.query(q.withAfterSeq(page.nextAfterSeq()));
            rows.addAll(page.events());
        }
        return rows;
    }

    @Test
    void everyMergedEnvelopeIsLoggedAndASecondRunReadsTheFirstRunsBack() throws Exception {
        Path state = dir.resolve("state");
        UnifiedRuntime first = start(builder().persistentState(state));
        first.routeModuleCall(new ModuleRouteRequest("weather", "forecast", null), T);
        first.ingestAgentEvent(EventEnvelope.agent("agent-1", System.currentTimeMillis(), "host", "run_failed",
                MAPPER.readTree("{\"error_report\":{\"message\":\"boom\",\"reason\":{\"reason_type\":\"llm_auth_error\"}}}")));
        List<String> merged = first.mergedEvents().stream().map(EventCodec::toJson).collect(Collectors.toList());
        String firstInstance = first.eventLog().orElseThrow().instanceId();
        first.close();

        UnifiedRuntime second = start(builder().persistentState(state));
        EventLog log = second.eventLog().orElseThrow();
        assertThat(log.instanceId()).isNotEqualTo(firstInstance);
        List<LoggedEvent> earlier = all(log).stream().filter(r -> r.instanceId().equals(firstInstance))
                .collect(Collectors.toList());
        assertThat(earlier).extracting(LoggedEvent::json).containsExactlyInAnyOrderElementsOf(merged);
        assertThat(merged).anyMatch(json -> json.contains("\"reason\":\"llm_auth_error\""));
        second.routeModuleCall(new ModuleRouteRequest("weather", "forecast", null), T);
        await().atMost(T).until(() -> all(log).stream().anyMatch(r -> !r.instanceId().equals(firstInstance)));
        long lastOfFirst = earlier.get(earlier.size() - 1).seq();
        assertThat(all(log).stream().filter(r -> !r.instanceId().equals(firstInstance)))
                .allMatch(r -> r.seq() > lastOfFirst);
        assertThat(state.resolve("event_log.sqlite3")).exists();
        assertThat(state.resolve("meta_metadata.sqlite3")).exists();
    }

    @Test
    void aHostLogIsFlushedButNotClosedAndARuntimeWithoutOneHasNone() {
        try (EventLog log = EventLogs.persistentState(dir.resolve("host"))) {
            UnifiedRuntime runtime = start(builder().eventLog(log));
            assertThat(runtime.eventLog()).containsSame(log);
            runtime.close();
            assertThat(all(log)).isNotEmpty();
            log.append(EventEnvelope.module("after", 1, "host", "still-open", null));
            assertThat(log.flush(T)).isTrue();
        }
        UnifiedRuntime plain = start(builder());
        assertThat(plain.eventLog()).isEmpty();
        assertThatThrownBy(() -> plain.mobEvents(MobEventQuery.all())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void mobEventsResumeAfterTheSavedCursorAcrossARestart() {
        Path state = dir.resolve("state");
        Ledger ledger = new Ledger();
        ledger.append(3);
        UnifiedRuntime first = start(builder().persistentState(state).mobEventSource(ledger));
        List<MobStructuralEventEnvelope> live = new CopyOnWriteArrayList<>();
        try (Subscription sub = first.subscribeMobEvents(live::add)) {
            ledger.append(2);
        }
        assertThat(live).extracting(MobStructuralEventEnvelope::eventId).containsExactly("mob-evt-4", "mob-evt-5");
        first.close();
        ledger.append(2);
        UnifiedRuntime second = start(builder().persistentState(state).mobEventSource(ledger));
        assertThat(second.mobEvents(MobEventQuery.all()).events()).extracting(MobStructuralEventEnvelope::cursor)
                .containsExactly(4L, 5L, 6L, 7L);
        assertThat(second.mobEvents(new MobEventQuery(null, "member_spawned", null, -1, 10)).events())
                .singleElement().satisfies(e -> assertThat(e.data().path("creation").path("provenance")
                        .path("kind").asText()).isEqualTo("legacy_unknown"));
    }

    /** A host ledger: cursors 1, 2, ...; cursor 6 is a member_spawned without creation facts. */
    private static final class Ledger implements MobEventSource {
        private final List<MobEvent> events = new ArrayList<>();
        private final List<Consumer<MobEvent>> subscribers = new ArrayList<>();

        synchronized void append(int n) {
            for (int i = 0; i < n; i++) {
                long cursor = events.size() + 1;
                MobEvent e = new MobEvent(cursor, "mob-1", 1_000 + cursor, cursor == 6 ? "MemberSpawned" : "FlowStarted",
                        JsonNodeFactory.instance.objectNode().put("n", cursor), null, null, null, null, null);
                events.add(e);
                List.copyOf(subscribers).forEach(s -> s.accept(e));
            }
        }

        @Override
        public synchronized long latestCursor() {
            return events.size();
        }

        @Override
        public synchronized boolean retains(long cursor) {
            return cursor >= 0 && cursor <= events.size();
        }

        @Override
        public synchronized Subscription subscribeAfter(long cursor, Consumer<MobEvent> consumer) {
            events.stream().filter(e -> e.cursor() > cursor).forEach(consumer);
            subscribers.add(consumer);
            return new Subscription() {
                private volatile boolean closed;

                @Override
                public boolean isClosed() {
                    return closed;
                }

                @Override
                public void close() {
                    closed = true;
                    synchronized (Ledger.this) {
                        subscribers.remove(consumer);
                    }
                }
            };
        }
    }
}
