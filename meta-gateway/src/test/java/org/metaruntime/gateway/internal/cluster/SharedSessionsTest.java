package org.metaruntime.gateway.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.metaruntime.testing.PostgresServer;

class SharedSessionsTest {

    private static String url;
    private static DataSource database;

    @BeforeAll
    static void database() {
        url = PostgresServer.get().freshDatabase();
        database = StateDatabase.dataSource(url, Map.of());
    }

    @AfterAll
    static void drop() {
        PostgresServer.get().dropDatabase(url);
    }

    private static SessionRecord record(String id) {
        return new SessionRecord(id, "2025-11-25", JsonNodeFactory.instance.objectNode().putObject("sampling"),
                JsonNodeFactory.instance.objectNode().put("name", "t").put("version", "1"), "info", "alice", "tokens", 0, 0);
    }

    @Test
    void aSessionIsWrittenLoadedTouchedAndDeleted() {
        SharedSessions sessions = new SharedSessions(database, Duration.ofMinutes(30));
        sessions.create(record("s1"));
        SessionRecord loaded = sessions.load("s1").orElseThrow();
        assertThat(loaded.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(loaded.clientInfo().path("name").asText()).isEqualTo("t");
        assertThat(loaded.principalName()).isEqualTo("alice");
        assertThat(loaded.createdMs()).isPositive();
        sessions.logLevel("s1", "warning");
        assertThat(sessions.load("s1").orElseThrow().logLevel()).isEqualTo("warning");
        assertThat(sessions.touch("s1")).isTrue();
        sessions.delete("s1");
        assertThat(sessions.load("s1")).isEmpty();
        assertThat(sessions.touch("s1")).isFalse();
        assertThat(sessions.expireIfIdle("s1")).isTrue();
    }

    @Test
    void idleExpiryIsJudgedOnTheSharedLastUseWithTheDatabaseClock() throws Exception {
        SharedSessions sessions = new SharedSessions(database, Duration.ofSeconds(60));
        sessions.create(record("s2"));
        sessions.create(record("s3"));
        lastUsed("s2", 59);
        assertThat(sessions.expireIfIdle("s2")).isFalse(); // used 59 s ago, by any replica: still open
        assertThat(sessions.load("s2")).isPresent();
        lastUsed("s2", 61);
        assertThat(sessions.load("s2")).isEmpty();
        assertThat(sessions.touch("s2")).isFalse();
        assertThat(sessions.expireIfIdle("s2")).isTrue();
        lastUsed("s3", 61);
        assertThat(sessions.sweep()).isEqualTo(1);
        assertThat(sessions.load("s3")).isEmpty();
    }

    @Test
    void anUnreachableDatabaseFailsFastWithAClearError() {
        SharedSessions sessions = new SharedSessions(
                StateDatabase.dataSource("jdbc:postgresql://127.0.0.1:1/none?user=x", Map.of()), Duration.ofMinutes(1));
        long start = System.nanoTime();
        assertThatThrownBy(() -> sessions.load("s4")).isInstanceOf(DatabaseUnreachable.class)
                .hasMessageStartingWith("the database of the cluster cannot be reached");
        assertThat(System.nanoTime() - start).isLessThan(StateDatabase.CONNECT_SECONDS * 2_000_000_000L);
    }

    @Test
    void afterAFailureRequestsFailAtOnceUntilTheRetryPauseEnds() {
        long[] now = {0};
        java.util.concurrent.atomic.AtomicInteger connects = new java.util.concurrent.atomic.AtomicInteger();
        DataSource counting = new org.postgresql.ds.PGSimpleDataSource() {
            @Override
            public Connection getConnection() throws java.sql.SQLException {
                connects.incrementAndGet();
                throw new java.sql.SQLException("Connection refused");
            }
        };
        SharedSessions sessions = new SharedSessions(counting, Duration.ofMinutes(1), () -> now[0]);
        assertThatThrownBy(() -> sessions.touch("s5")).isInstanceOf(DatabaseUnreachable.class);
        assertThatThrownBy(() -> sessions.load("s5")).isInstanceOf(DatabaseUnreachable.class);
        assertThat(connects).hasValue(1);
        now[0] += SharedSessions.RETRY_AFTER.toNanos();
        assertThatThrownBy(() -> sessions.load("s5")).isInstanceOf(DatabaseUnreachable.class);
        assertThat(connects).hasValue(2);
    }

    private static void lastUsed(String id, int secondsAgo) throws Exception {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE gateway_session SET last_used = now() - interval '" + secondsAgo + " seconds' WHERE id = '"
                    + id + "'");
        }
    }
}
