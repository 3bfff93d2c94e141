package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.ServerSocket;
import java.net.URI;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventLogException;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.testing.CapturedLogs;
import org.metaruntime.testing.PostgresServer;
import org.metaruntime.testing.TcpForwarder;
import org.slf4j.event.Level;

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
    void aLogOpenedWhileItsServerIsDownQueuesAppendsAndWritesThemOnceTheServerIsUp() throws Exception {
        CapturedLogs.clear();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        URI server = URI.create(url.substring("jdbc:".length()));
        String viaPort = "jdbc:postgresql://127.0.0.1:" + port + server.getRawPath() + "?"
                + (server.getRawQuery() == null ? "" : server.getRawQuery() + "&") + "connectTimeout=5";
        try (EventLog log = EventLogs.jdbc(PostgresServer.dataSource(viaPort),
                EventLogOptions.builder().instanceId("outage").build())) {
            assertThat(CapturedLogs.matching(e -> e.level() == Level.WARN)).extracting(CapturedLogs.Entry::message)
                    .anySatisfy(line -> assertThat(line).contains("cannot be reached"));
            for (int i = 0; i < 100; i++) {
                log.append(module(i, "m", "tick"));
            }
            assertThatThrownBy(() -> log.query(EventQuery.all())).isInstanceOf(EventLogException.class)
                    .hasMessageStartingWith("could not read the event log:");
            await().atMost(Duration.ofSeconds(60)).until(() -> CapturedLogs.matching(
                    e -> e.message().contains("event log commit failed; retrying")).size() > 0);

            try (TcpForwarder up = TcpForwarder.start(port, server.getHost(), server.getPort())) {
                assertThat(log.flush(Duration.ofSeconds(60))).isTrue();
                List<LoggedEvent> rows = log.query(EventQuery.builder().limit(1_000).build()).events();
                assertThat(rows).hasSize(100);
                assertThat(rows).extracting(row -> row.envelope().eventId())
                        .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 100)
                                .mapToObj(i -> module(i, "m", "tick").eventId()).toList());
                assertThat(rows).extracting(LoggedEvent::instanceId).containsOnly("outage");
            }
        }
        assertThat(CapturedLogs.matching(e -> e.logger().startsWith("org.metaruntime.eventlog")))
                .extracting(CapturedLogs.Entry::message)
                .anySatisfy(line -> assertThat(line).startsWith("event log writes again after"));
    }

    @Test
    void aServerThatRefusesTheLogIsAClearErrorAtOnce() {
        String noSuchDatabase = PostgresServer.withDatabase(url, "meta_no_such_database");
        assertThatThrownBy(() -> EventLogs.jdbc(PostgresServer.dataSource(noSuchDatabase)))
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
