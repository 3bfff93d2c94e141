package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventLogException;

/** The event-log suite on a real PostgreSQL server ({@link PostgresServer}), one fresh database per test. */
class PostgresEventLogTest extends EventLogContract {

    private String url;

    @BeforeEach
    void freshDatabase() {
        url = PostgresServer.get().freshDatabase();
    }

    @AfterEach
    void dropDatabase() {
        PostgresServer.get().dropDatabase(url);
    }

    @Test
    void anUnreachableServerIsAClearError() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String nowhere = "jdbc:postgresql://127.0.0.1:" + port + "/meta?user=postgres&connectTimeout=5";
        assertThatThrownBy(() -> EventLogs.jdbc(PostgresServer.dataSource(nowhere)))
                .isInstanceOf(EventLogException.class)
                .hasMessageStartingWith("could not open the event log:");
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
