package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.gateway.internal.pipeline.ArgumentDigest;
import org.metaruntime.testing.PostgresServer;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.TcpForwarder;

/**
 * The faults a cluster of three replicas behind HAProxy lives through, in turn on one topology whose replicas reach
 * PostgreSQL through a TCP forwarder the test closes and opens again. The database going away: every replica keeps
 * serving 2026-07-28 requests and the legacy sessions it holds; a session only another replica holds, and a new
 * session, fail at once with -32603 naming the database rather than hang; the calls' audit records wait in memory and
 * are all written once the database is back, when the replica that did not hold the session serves it. Then one
 * replica killed (SIGKILL) while 16 clients of both eras (8 TypeScript SDK v1 sessions, 8 SDK v2 clients of
 * 2026-07-28) call through HAProxy: every call is answered with its own text or fails with a clear error (at most
 * the one call each client had in flight), every legacy session goes on on the other replicas, no pod process of the
 * killed replica is left, the others stop listing it once its heartbeat is stale, and its task fails with -32002
 * naming it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScaleOutFaultsIT {

    private static final Pattern HOST_PORT = Pattern.compile("jdbc:postgresql://([^/:?]+)(?::(\\d+))?/");
    private static final Pattern CALLS = Pattern.compile("(?m)^meta_gateway_tool_calls_seconds_count(?:\\{[^}]*\\})? ([0-9.eE+-]+)$");
    private static final Pattern ARGS_SHA256 = Pattern.compile("\"args_sha256\"\\s*:\\s*\"([0-9a-f]{64})\"");
    private static final int CLIENTS_PER_ERA = 8;
    private static final int BEFORE = 20;
    private static final int AFTER = 5;

    @TempDir
    static Path dir;

    private static String host;
    private static int port;
    private static int via;
    private static TcpForwarder link;
    private static Topology topology;

    @BeforeAll
    static void start() throws Exception {
        Matcher m = HOST_PORT.matcher(PostgresServer.get().adminUrl());
        assertThat(m.find()).isTrue();
        host = m.group(1);
        port = m.group(2) == null ? 5432 : Integer.parseInt(m.group(2));
        via = Haproxy.freePort();
        link = TcpForwarder.start(via, host, port);
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        NodeClient.callTimeout(manifests.resolve("fixture.yaml"), "60s");
        topology = Topology.start(dir, manifests, 3, true,
                List.of("--task-after", "1s"), url -> url.replaceFirst("//[^/]+/", "//127.0.0.1:" + via + "/"));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (topology != null) {
                topology.close();
            }
        } finally {
            if (link != null) {
                link.close();
            }
        }
    }

    private static ObjectNode echo(String text) {
        ObjectNode params = NodeClient.JSON.createObjectNode().put("name", "fixture__echo");
        params.putObject("arguments").put("text", text);
        return params;
    }

    /** Opens a legacy session with the SDK client on {@code url} (it ends without DELETE: the session stays). */
    private static String open(String url) throws Exception {
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", url);
        script.putArray("steps").add(NodeClient.call("fixture__echo", "{\"text\":\"open\"}"));
        JsonNode session = NodeClient.run(script);
        assertThat(session.at("/steps/0/ok/content/0/text").asText()).as(session.toString()).isEqualTo("open");
        return session.path("sessionId").asText();
    }

    private static void served(int replica, String session, String text) throws Exception {
        Topology.Answer answer = topology.legacy(topology.replica(replica).url(), session, "tools/call", echo(text));
        assertThat(answer.body().at("/result/content/0/text").asText()).as("r%s: %s\n%s", replica + 1, answer, topology.stderr())
                .isEqualTo(text);
    }

    @Test
    @Order(1)
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void withoutTheDatabaseEveryReplicaServesWhatItHoldsFailsTheRestAtOnceAndLosesNoAuditRecord() throws Exception {
        String shared = open(topology.replica(0).url());
        served(1, shared, "shared on r2");
        String onlyR1 = open(topology.replica(0).url());

        link.close();
        await("r2 sees the database gone").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> topology.get(1, "/healthz").body().contains("\"database\":\"unreachable\""));
        assertThat(topology.get(1, "/healthz").statusCode()).as("ready through the outage").isEqualTo(200);

        List<String> audited = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            Topology.Answer modern = topology.modern(topology.replica(r).url(), "tools/call", "fixture__echo", echo("modern r" + r));
            assertThat(modern.body().at("/result/content/0/text").asText()).as("%s", modern).isEqualTo("modern r" + r);
            audited.add("modern r" + r);
        }
        served(0, shared, "held by r1");
        served(1, shared, "held by r2");
        served(0, onlyR1, "only r1 holds it");
        audited.addAll(List.of("held by r1", "held by r2", "only r1 holds it"));
        Topology.Answer elsewhere = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> topology.legacy(topology.replica(1).url(), onlyR1, "tools/call", echo("r2 must read it")));
        assertThat(elsewhere.body().at("/error/code").asInt()).as("%s", elsewhere).isEqualTo(-32603);
        assertThat(elsewhere.body().at("/error/message").asText()).contains("database").contains("cannot be reached");
        ObjectNode newSession = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.replica(2).url());
        newSession.putArray("steps");
        JsonNode refused = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> NodeClient.runRaw(newSession));
        assertThat(refused.path("connectError").toString()).as("%s", refused).contains("cannot be reached");

        link = TcpForwarder.start(via, host, port);
        await("r2 reaches the database again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> topology.get(1, "/healthz").body().contains("\"database\":\"reachable\""));
        // After a failure a replica tries the database again at most every 2 s: within that, the session waits.
        await("r2 reads it").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> served(1, onlyR1, "r2 reads it now"));
        open(topology.url());
        Set<String> digests = new HashSet<>();
        for (String text : audited) {
            digests.add(ArgumentDigest.of(NodeClient.JSON.createObjectNode().put("text", text)).sha256());
        }
        await("the audit records of the calls served without the database").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250)).untilAsserted(() -> assertThat(auditedDigests()).containsAll(digests));
    }

    /** The {@code args_sha256} of every {@code gateway.call} record in the shared database. */
    private static Set<String> auditedDigests() throws Exception {
        Set<String> digests = new HashSet<>();
        try (Connection c = PostgresServer.dataSource(topology.database()).getConnection();
             Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT envelope FROM event_log WHERE event_type = 'gateway.call'")) {
            while (rows.next()) {
                Matcher m = ARGS_SHA256.matcher(rows.getString(1));
                while (m.find()) {
                    digests.add(m.group(1));
                }
            }
        }
        return digests;
    }

    private static ObjectNode script(String client, Path connected, Path killed) {
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.url());
        ArrayNode steps = script.putArray("steps");
        steps.add(NodeClient.step("appendLine").put("path", connected.toString()).put("text", client));
        for (int i = 0; i < BEFORE + AFTER; i++) {
            if (i == BEFORE) {
                steps.add(NodeClient.step("waitLines").put("path", killed.toString()).put("prefix", "killed")
                        .put("count", 1).put("timeoutMs", 90_000));
            }
            steps.add(NodeClient.call("fixture__echo", "{\"text\":\"" + client + " " + i + " ✓\"}").put("timeoutMs", 30_000));
        }
        return script;
    }

    private static double calls(int replica) throws Exception {
        Matcher m = CALLS.matcher(topology.get(replica, "/metrics").body());
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return sum;
    }

    @Test
    @Order(2)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aReplicaKilledUnderLoadFailsOnlyItsCallsInFlight() throws Exception {
        Path killed = dir.resolve("killed.txt");
        Path connected = dir.resolve("connected.txt");
        String r2 = NodeClient.JSON.readTree(topology.get(1, "/healthz").body()).at("/replica/id").asText();
        List<String> names = new ArrayList<>();
        List<NodeProcess> clients = new ArrayList<>();
        try {
            for (int c = 0; c < CLIENTS_PER_ERA; c++) {
                names.add("legacy-" + c);
                clients.add(NodeProcess.start(script("legacy-" + c, connected, killed)));
                names.add("modern-" + c);
                clients.add(NodeProcess.startModern(script("modern-" + c, connected, killed)));
            }
            // every client has its session before the kill: a connect that meets it is not a call in flight
            await("every client connected").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                    .until(() -> Files.exists(connected) && Files.readAllLines(connected).size() == clients.size());
            await("r2 serving the load").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> calls(1) >= 20);
            ObjectNode sleep = NodeClient.JSON.createObjectNode().put("name", "fixture__sleep");
            sleep.putObject("arguments").put("seconds", 45);
            Topology.Answer handle = topology.modernTasks(topology.replica(1).url(), "tools/call", "fixture__sleep", sleep);
            String taskId = handle.body().at("/result/taskId").asText();
            assertThat(taskId).as("%s", handle).startsWith(r2 + ":task-");
            List<ProcessHandle> pods = topology.kill(1);
            assertThat(pods).as("r2's pods").isNotEmpty();
            pods.forEach(ProcessLeaks::assertDead);
            Files.writeString(killed, "killed\n");

            int failed = 0;
            for (int c = 0; c < clients.size(); c++) {
                failed += failures(names.get(c), clients.get(c).result());
            }
            assertThat(failed).as("calls in flight on r2 at the kill").isLessThanOrEqualTo(clients.size());
            assertTaskLost(taskId, r2);
        } finally {
            for (NodeProcess client : clients) {
                client.close();
            }
        }
    }

    /** The calls of client {@code name} that failed: at most its one call in flight at the kill, none mismatched. */
    private static int failures(String name, JsonNode result) {
        JsonNode steps = result.path("steps");
        assertThat(steps.path(0).has("ok")).as("%s said it connected: %s", name, steps.path(0)).isTrue();
        int failures = 0;
        for (int i = 1, call = 0; i < steps.size(); i++) {
            if (i == BEFORE + 1) {
                assertThat(steps.get(i).has("ok")).as("%s waited for the kill: %s", name, steps.get(i)).isTrue();
                continue;
            }
            JsonNode step = steps.get(i);
            String expected = name + " " + call + " ✓";
            if (step.has("ok") && !step.at("/ok/isError").asBoolean()) {
                assertThat(step.at("/ok/content/0/text").asText()).as("%s call %s", name, call).isEqualTo(expected);
            } else {
                assertThat(call).as("%s: a call after the kill failed: %s\n%s", name, step, topology.stderr()).isLessThan(BEFORE);
                assertThat(step.at("/error/message").asText()).as("a clear error: %s", step).isNotBlank();
                failures++;
            }
            call++;
        }
        assertThat(failures).as("%s failed more than its call in flight at the kill", name).isLessThanOrEqualTo(1);
        return failures;
    }

    /**
     * Once the killed replica {@code replica}'s heartbeat is stale, the others no longer list it, and its task
     * {@code taskId} is failed with -32002 naming it whichever replica the balancer asks; cancelling it fails the same.
     */
    private static void assertTaskLost(String taskId, String replica) throws Exception {
        ObjectNode params = NodeClient.JSON.createObjectNode().put("taskId", taskId);
        await("the task of the killed replica failed").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    assertThat(topology.get(0, "/console/api/replicas").body()).doesNotContain(replica);
                    Topology.Answer got = topology.modernTasks(topology.url(), "tasks/get", taskId, params);
                    assertThat(got.body().at("/result/status").asText()).as("%s", got).isEqualTo("failed");
                    assertThat(got.body().at("/result/error/code").asInt()).isEqualTo(-32002);
                    assertThat(got.body().at("/result/error/message").asText()).contains(replica);
                });
        for (int i = 0; i < 2; i++) {
            Topology.Answer got = topology.modernTasks(topology.url(), "tasks/get", taskId, params);
            assertThat(got.body().at("/result/status").asText()).as("on %s: %s", got.servedBy(), got).isEqualTo("failed");
        }
        Topology.Answer cancel = topology.modernTasks(topology.url(), "tasks/cancel", taskId, params);
        assertThat(cancel.body().at("/error/code").asInt()).as("%s", cancel).isEqualTo(-32002);
        assertThat(cancel.body().at("/error/data/replica").asText()).isEqualTo(replica);
    }
}
