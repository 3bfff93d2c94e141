package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.eventlog.internal.Sqlite;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventQuery;

/** The event-log suite on the embedded SQLite log, plus what is particular to a file. */
class SqliteEventLogTest extends EventLogContract {

    @TempDir
    Path dir;

    @Override
    EventLog open(EventLogOptions options) {
        return EventLogs.persistentState(dir, options);
    }

    @Override
    AutoCloseable holdWriteLock() throws Exception {
        Connection c = Sqlite.dataSource(dir.resolve(EventLogs.EVENT_LOG_FILE), false).getConnection();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE event_log_head SET last_seq = last_seq WHERE name = 'event_log'");
        }
        return () -> {
            c.rollback();
            c.close();
        };
    }

    @Test
    void persistentStateUsesOneFileInWalMode() throws Exception {
        try (EventLog log = open()) {
            log.append(module(1, "m", "tick"));
            assertThat(log.flush(FLUSH)).isTrue();
            assertThat(log.query(EventQuery.all()).events()).hasSize(1);
        }
        Path file = dir.resolve("event_log.sqlite3");
        assertThat(file).exists();
        try (Connection c = Sqlite.dataSource(file, false).getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .allMatch(name -> name.startsWith("event_log.sqlite3"));
        }
    }

    @Test
    void checkpointsCopyCommittedPagesIntoTheFileWhileTheLogIsOpen() throws Exception {
        Path file = dir.resolve(EventLogs.EVENT_LOG_FILE);
        try (EventLog log = open()) {
            for (int i = 0; i < 20_000; i++) {
                log.append(module(i, "m" + (i % 7), "tick"));
            }
            assertThat(log.flush(FLUSH)).isTrue();
            // The writer only appends to the WAL (the file starts at a few pages); the file grows only by
            // checkpoints, which the checkpointer runs while the log stays open.
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.size(file) > 2_000_000);
            assertThat(log.query(EventQuery.builder().module("m3").limit(10_000).build()).events())
                    .hasSize((int) java.util.stream.IntStream.range(0, 20_000).filter(i -> i % 7 == 3).count());
        }
        try (Connection c = Sqlite.dataSource(file, false).getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("ok");
        }
    }
}
