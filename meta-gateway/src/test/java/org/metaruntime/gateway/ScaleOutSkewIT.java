package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.PostgresServer;

/**
 * Three replicas whose clocks disagree (libfaketime): r1 on the real clock, r2 {@link #SKEW} ahead, r3 {@link #SKEW}
 * behind, with a {@link #TIMEOUT} {@code --session-timeout}. A legacy session opened on a skewed replica and used
 * from the others at gaps shorter than the timeout stays open, and is gone on every replica once idle for the timeout
 * plus the skew; an idle session is still open after the timeout minus the skew and gone on every replica after the
 * timeout plus the skew; the skewed replicas' heartbeats keep them listed by every replica.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ScaleOutSkewIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final Duration SKEW = Duration.ofSeconds(2);
    /** Gaps between uses, and the age at which an idle session must still be open: within the timeout minus the skew. */
    private static final Duration IN_USE = TIMEOUT.minus(SKEW.dividedBy(2));
    /** The idle time after which a session must be gone everywhere: the timeout plus the skew, and some slack. */
    private static final Duration GONE = TIMEOUT.plus(SKEW).plusMillis(500);
    private static final int AHEAD = 1;
    private static final int BEHIND = 2;

    @TempDir
    static Path dir;

    private static Topology topology;
    private static ScheduledExecutorService scheduler;

    @BeforeAll
    static void start() throws Exception {
        Faketime.require();
        topology = Topology.start(dir, NodeClient.manifests(dir, dir.resolve("pids"), "fixture"),
                List.of("--session-timeout", TIMEOUT.toSeconds() + "s"),
                List.of(Map.of(), Faketime.env("+" + SKEW.toSeconds() + "s"), Faketime.env("-" + SKEW.toSeconds() + "s")));
        scheduler = Executors.newScheduledThreadPool(6);
    }

    @AfterAll
    static void stop() throws Exception {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (topology != null) {
            topology.close();
        }
    }

    /** Runs {@code task} once {@code nanos} (of {@link System#nanoTime}) has come. */
    private static <T> ScheduledFuture<T> at(long nanos, Callable<T> task) {
        return scheduler.schedule(task, Math.max(0, nanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /**
     * How far replica {@code index}'s clock is from the real one, at most {@code readMs} more than the true offset: the
     * age it reports for its own last heartbeat ({@code /console/api/replicas}) less the age of that heartbeat on the
     * database's clock just before the replica was asked, where {@code readMs} is how long the asking took on the
     * database's clock.
     */
    private record Offset(long ms, long readMs) {
    }

    /**
     * The offset of replica {@code index}'s clock, read once its heartbeat is older than the skew (a replica behind
     * reports no age below zero); null while a heartbeat is written meanwhile or the read took over a second.
     */
    private static Offset clockOffset(int index) throws Exception {
        String id = NodeClient.JSON.readTree(topology.get(index, "/healthz").body()).at("/replica/id").asText();
        long[] before = heartbeatAndNowMs(id);
        if (before[1] - before[0] < SKEW.toMillis() + 500) {
            return null;
        }
        JsonNode listed = NodeClient.JSON.readTree(topology.get(index, "/console/api/replicas").body());
        long[] after = heartbeatAndNowMs(id);
        long readMs = after[1] - before[1];
        if (after[0] != before[0] || readMs > 1000) {
            return null;
        }
        for (JsonNode replica : listed.path("replicas")) {
            if (replica.path("id").asText().equals(id)) {
                return new Offset(replica.path("heartbeatAgeMs").asLong() - (before[1] - before[0]), readMs);
            }
        }
        throw new AssertionError("r" + (index + 1) + " does not list itself: " + listed);
    }

    /** The heartbeat of replica {@code id} and the time now, in epoch milliseconds of the database's clock. */
    private static long[] heartbeatAndNowMs(String id) throws Exception {
        try (Connection c = PostgresServer.dataSource(topology.database()).getConnection();
             PreparedStatement s = c.prepareStatement("SELECT (EXTRACT(EPOCH FROM heartbeat) * 1000)::BIGINT,"
                     + " (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT FROM gateway_replica WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet rows = s.executeQuery()) {
                assertThat(rows.next()).as("replica %s registered", id).isTrue();
                return new long[] {rows.getLong(1), rows.getLong(2)};
            }
        }
    }

    /** Asserts that replica {@code index}'s clock is {@code expectedMs} from the real one, within 300 ms. */
    private static void assertClockOffset(int index, long expectedMs) {
        String name = "r" + (index + 1) + "'s clock";
        Offset offset = await(name + " read between two heartbeats").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(() -> clockOffset(index), Objects::nonNull);
        assertThat(offset.ms()).as("%s (read in %d ms)", name, offset.readMs())
                .isBetween(expectedMs - 300, expectedMs + 300 + offset.readMs());
    }

    private static int ping(int replica, String session) throws Exception {
        return topology.legacy(topology.replica(replica).url(), session, "ping", NodeClient.JSON.createObjectNode()).status();
    }

    @Test
    void theSkewedReplicasRunOnClocksAheadAndBehind() throws Exception {
        long skew = SKEW.toMillis();
        assertClockOffset(0, 0);
        assertClockOffset(AHEAD, skew);
        assertClockOffset(BEHIND, -skew);
    }

    @Test
    void aSessionOfASkewedReplicaKeptInUseElsewhereStaysOpenThenExpiresEverywhere() throws Exception {
        List<ScheduledFuture<List<String>>> runs = new ArrayList<>();
        for (int opener : List.of(AHEAD, BEHIND)) {
            runs.add(scheduler.schedule(() -> keepInUseThenLeave(opener), 0, TimeUnit.NANOSECONDS));
        }
        for (ScheduledFuture<List<String>> run : runs) {
            assertThat(run.get(60, TimeUnit.SECONDS)).as("%s", topology.stderr()).isEmpty();
        }
    }

    /** The failures of a session opened on {@code opener}, used every {@link #IN_USE} on each replica in turn, then left. */
    private static List<String> keepInUseThenLeave(int opener) throws Exception {
        List<String> failures = new ArrayList<>();
        String session = topology.openLegacy(topology.replica(opener).url());
        long lastUse = System.nanoTime();
        int[] users = {(opener + 1) % 3, (opener + 2) % 3, opener, (opener + 1) % 3};
        for (int user : users) {
            int status = at(lastUse + IN_USE.toNanos(), () -> ping(user, session)).get(30, TimeUnit.SECONDS);
            lastUse = System.nanoTime();
            if (status != 200) {
                failures.add("r" + (opener + 1) + "'s session used on r" + (user + 1) + " after " + IN_USE + " answered " + status);
            }
        }
        long left = lastUse;
        for (int replica = 0; replica < 3; replica++) {
            int r = replica;
            int status = at(left + GONE.toNanos(), () -> ping(r, session)).get(30, TimeUnit.SECONDS);
            if (status != 404) {
                failures.add("r" + (opener + 1) + "'s session left for " + GONE + " answered " + status + " on r" + (r + 1));
            }
        }
        return failures;
    }

    @Test
    void anIdleSessionOfASkewedReplicaExpiresOnEveryReplicaWithinTheTimeoutPlusTheSkew() throws Exception {
        record Probe(String what, int expected, ScheduledFuture<Integer> status) {
        }
        List<Probe> probes = new ArrayList<>();
        for (int opener : List.of(AHEAD, BEHIND)) {
            for (int replica = 0; replica < 3; replica++) {
                int r = replica;
                long opening = System.nanoTime();
                String early = topology.openLegacy(topology.replica(opener).url());
                String late = topology.openLegacy(topology.replica(opener).url());
                long opened = System.nanoTime();
                String where = "a session of r" + (opener + 1) + " on r" + (r + 1);
                probes.add(new Probe(where + " idle for " + IN_USE, 200, at(opening + IN_USE.toNanos(), () -> ping(r, early))));
                probes.add(new Probe(where + " idle for " + GONE, 404, at(opened + GONE.toNanos(), () -> ping(r, late))));
            }
        }
        for (Probe probe : probes) {
            assertThat(probe.status().get(30, TimeUnit.SECONDS)).as("%s\n%s", probe.what(), topology.stderr())
                    .isEqualTo(probe.expected());
        }
    }

    @Test
    void theHeartbeatsOfTheSkewedReplicasKeepThemListedByEveryReplica() throws Exception {
        await("a heartbeat of every replica after its registration").atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200)).until(() -> heartbeatsAfterStart() == 3);
        Set<String> ids = new TreeSet<>();
        for (int i = 0; i < 3; i++) {
            ids.add(NodeClient.JSON.readTree(topology.get(i, "/healthz").body()).at("/replica/id").asText());
        }
        for (int i = 0; i < 3; i++) {
            JsonNode listed = NodeClient.JSON.readTree(topology.get(i, "/console/api/replicas").body());
            Set<String> seen = new TreeSet<>();
            listed.path("replicas").forEach(r -> seen.add(r.path("id").asText()));
            assertThat(seen).as("replicas listed by r%s: %s", i + 1, listed).isEqualTo(ids);
        }
    }

    private static int heartbeatsAfterStart() throws Exception {
        try (Connection c = PostgresServer.dataSource(topology.database()).getConnection();
             PreparedStatement s = c.prepareStatement("SELECT count(*) FROM gateway_replica WHERE heartbeat > started");
             ResultSet rows = s.executeQuery()) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
