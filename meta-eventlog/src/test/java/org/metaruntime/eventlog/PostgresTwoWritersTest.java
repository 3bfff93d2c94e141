package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.Subscription;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.PostgresServer;

/**
 * Two runtimes in two JVMs append to one PostgreSQL log at once; a reader tailing it from a third sees every
 * row of both exactly once, in {@code seq} order, each naming the instance that wrote it.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class PostgresTwoWritersTest {

    private static final int PER_WRITER = 15_000;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void aTailSeesEveryRowOfBothWritersOnceInSeqOrder() throws Exception {
        String url = PostgresServer.get().freshDatabase();
        List<LoggedEvent> seen = new CopyOnWriteArrayList<>();
        EventLogOptions readerOptions = EventLogOptions.builder().instanceId("reader")
                .tailPollInterval(Duration.ofMillis(20)).build();
        try (EventLog reader = EventLogs.jdbc(PostgresServer.dataSource(url), readerOptions);
             Subscription tail = reader.subscribe(EventQuery.builder().limit(500).build(), seen::add);
             ChildJvm a = new ChildJvm("jdbc", url, "runtime-a", Integer.toString(PER_WRITER));
             ChildJvm b = new ChildJvm("jdbc", url, "runtime-b", Integer.toString(PER_WRITER))) {
            assertThat(a.readLine()).isEqualTo("ready");
            assertThat(b.readLine()).isEqualTo("ready");
            a.go();
            b.go();
            for (ChildJvm child : List.of(a, b)) {
                String line;
                do {
                    line = child.readLine();
                } while (line.startsWith("committed "));
                assertThat(line).isEqualTo("done");
                assertThat(child.waitFor()).isZero();
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> seen.size() >= 2 * PER_WRITER);
            assertThat(seen).hasSize(2 * PER_WRITER);
            Map<String, Integer> nextIndex = new HashMap<>(Map.of("runtime-a", 0, "runtime-b", 0));
            boolean interleaved = false;
            for (int i = 0; i < seen.size(); i++) {
                LoggedEvent row = seen.get(i);
                if (i > 0) {
                    assertThat(row.seq()).isGreaterThan(seen.get(i - 1).seq());
                    interleaved |= !row.instanceId().equals(seen.get(i - 1).instanceId());
                }
                int expected = nextIndex.get(row.instanceId());
                assertThat(row.envelope().eventId()).isEqualTo(row.instanceId() + "-" + expected);
                nextIndex.put(row.instanceId(), expected + 1);
            }
            assertThat(nextIndex).containsEntry("runtime-a", PER_WRITER).containsEntry("runtime-b", PER_WRITER);
            assertThat(interleaved).as("the two writers' rows interleave").isTrue();
        } finally {
            PostgresServer.get().dropDatabase(url);
        }
    }
}
