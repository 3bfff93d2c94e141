package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.eventlog.internal.Sqlite;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.testing.LeakCheck;

/**
 * A child JVM appends to a SQLite log and is killed with SIGKILL mid-stream: on reopen every row it had seen
 * committed is there, once, and the file passes {@code PRAGMA integrity_check}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SqliteCrashTest {

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @RepeatedTest(2)
    void everyCommittedRowSurvivesASigkillAndTheFileIsIntact(RepetitionInfo repetition) throws Exception {
        Path file = dir.resolve("event_log.sqlite3");
        long committed = 0;
        try (ChildJvm child = new ChildJvm("sqlite", file.toString(), "crash", "0")) {
            assertThat(child.readLine()).isEqualTo("ready");
            child.go();
            int rounds = repetition.getCurrentRepetition() == 1 ? 23 : 47; // killed early in one run, later in the other
            for (int r = 0; r < rounds; r++) {
                String line = child.readLine();
                assertThat(line).startsWith("committed ");
                committed = Long.parseLong(line.substring("committed ".length()));
            }
            child.kill();
        }
        try (Connection c = Sqlite.dataSource(file, false).getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("ok");
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT seq), count(DISTINCT event_id)"
                    + " FROM event_log")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(2)).isEqualTo(rs.getLong(1));
                assertThat(rs.getLong(3)).isEqualTo(rs.getLong(1));
            }
        }
        try (EventLog log = EventLogs.sqlite(file, EventLogOptions.defaults())) {
            List<LoggedEvent> rows = new ArrayList<>();
            EventQuery q = EventQuery.builder().limit(10_000).build();
            var page = log.query(q);
            rows.addAll(page.events());
            while (page.nextAfterSeq() != null) {
                page = log.query(q.withAfterSeq(page.nextAfterSeq()));
                rows.addAll(page.events());
            }
            assertThat((long) rows.size()).isGreaterThanOrEqualTo(committed);
            for (int i = 0; i < rows.size(); i++) {
                assertThat(rows.get(i).envelope().eventId()).isEqualTo("crash-" + i);
                assertThat(rows.get(i).instanceId()).isEqualTo("crash");
                if (i > 0) {
                    assertThat(rows.get(i).seq()).isGreaterThan(rows.get(i - 1).seq());
                }
            }
        }
    }
}
