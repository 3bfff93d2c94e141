package org.metaruntime.eventlog;

import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.metaruntime.events.EventLog;

/** The event-log suite on a real PostgreSQL server ({@link PostgresServer}), one fresh database per test. */
class PostgresEventLogTest extends EventLogContract {

    private String url;

    @BeforeEach
    void freshDatabase() {
        url = PostgresServer.get().freshDatabase();
    }

    @Override
    EventLog open(EventLogOptions options) {
        return EventLogs.jdbc(PostgresServer.dataSource(url), options);
    }

    @Override
    AutoCloseable holdWriteLock() throws Exception {
        Connection c = PostgresServer.dataSource(url).getConnection();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeQuery("SELECT last_seq FROM event_log_head WHERE name = 'event_log' FOR UPDATE").close();
        }
        return () -> {
            c.rollback();
            c.close();
        };
    }
}
