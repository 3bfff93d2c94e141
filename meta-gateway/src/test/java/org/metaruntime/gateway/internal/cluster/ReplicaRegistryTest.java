package org.metaruntime.gateway.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.metaruntime.testing.PostgresServer;

class ReplicaRegistryTest {

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

    @Test
    void replicasRegisterSeeEachOtherAndLeaveAtAStop() {
        try (ReplicaRegistry a = new ReplicaRegistry(database, "r-a", URI.create("http://127.0.0.1:1001"));
             ReplicaRegistry b = new ReplicaRegistry(database, "r-b", URI.create("http://127.0.0.1:1002"))) {
            assertThat(a.ready()).isFalse();
            assertThat(a.register()).isTrue();
            assertThat(b.register()).isTrue();
            assertThat(a.ready()).isTrue();
            assertThat(a.live()).extracting(Replica::id).containsExactly("r-a", "r-b");
            assertThat(a.urlOf("r-b")).contains(URI.create("http://127.0.0.1:1002"));
            assertThat(a.urlOf("r-a")).contains(URI.create("http://127.0.0.1:1001"));
            b.close();
            assertThat(a.live()).extracting(Replica::id).containsExactly("r-a");
            assertThat(a.urlOf("r-b")).isEmpty();
        }
    }

    @Test
    void aReplicaWhoseHeartbeatIsOlderThanFifteenSecondsIsGoneUntilItBeatsAgain() throws Exception {
        try (ReplicaRegistry a = new ReplicaRegistry(database, "r-c", URI.create("http://127.0.0.1:1003"));
             ReplicaRegistry b = new ReplicaRegistry(database, "r-d", URI.create("http://127.0.0.1:1004"))) {
            a.register();
            b.register();
            age("r-d", 14);
            assertThat(a.live()).extracting(Replica::id).contains("r-d");
            age("r-d", 16);
            assertThat(a.live()).extracting(Replica::id).contains("r-c").doesNotContain("r-d");
            assertThat(a.urlOf("r-d")).isEmpty();
            b.beat();
            assertThat(a.live()).extracting(Replica::id).contains("r-c", "r-d");
        }
    }

    @Test
    void aReplicasUrlIsAsOfTheLastListReadUntilTheNextHeartbeat() throws Exception {
        try (ReplicaRegistry a = new ReplicaRegistry(database, "r-e", URI.create("http://127.0.0.1:1005"));
             ReplicaRegistry b = new ReplicaRegistry(database, "r-f", URI.create("http://127.0.0.1:1006"))) {
            a.register();
            b.register();
            assertThat(a.urlOf("r-f")).as("joined after a's last read: read now").contains(URI.create("http://127.0.0.1:1006"));
            age("r-f", 16);
            assertThat(a.urlOf("r-f")).as("as of the last list read").contains(URI.create("http://127.0.0.1:1006"));
            a.beat();
            assertThat(a.urlOf("r-f")).as("gone at a's next heartbeat").isEmpty();
        }
    }

    @Test
    void anUnreachableDatabaseLeavesTheReplicaUnreadyWithoutHanging() {
        DataSource nowhere = StateDatabase.dataSource("jdbc:postgresql://127.0.0.1:1/none?user=x", Map.of());
        try (ReplicaRegistry a = new ReplicaRegistry(nowhere, "r-e", URI.create("http://127.0.0.1:1005"))) {
            long start = System.nanoTime();
            assertThat(a.register()).isFalse();
            a.beat();
            assertThat(a.ready()).isFalse();
            assertThat(a.reachable()).isFalse();
            assertThat(a.live()).isEmpty();
            assertThat(System.nanoTime() - start).isLessThan(StateDatabase.CONNECT_SECONDS * 3_000_000_000L);
        }
    }

    private static void age(String id, int seconds) throws Exception {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE gateway_replica SET heartbeat = now() - interval '" + seconds + " seconds' WHERE id = '"
                    + id + "'");
        }
    }
}
