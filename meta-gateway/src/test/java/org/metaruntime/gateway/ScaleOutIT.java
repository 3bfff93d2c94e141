package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metaruntime.gateway.internal.cluster.ClusterKey;
import org.metaruntime.gateway.internal.cluster.Forwarder;
import org.metaruntime.testing.PostgresServer;
import org.metaruntime.testing.Tools;

/**
 * Three gateway replicas sharing one PostgreSQL database behind a real HAProxy in round robin without stickiness,
 * driven by real clients of both eras: each replica is registered and ready; modern-era (2026-07-28) requests are
 * served by any replica, and {@code tools/list} is the same answer (same tools, same order) on every replica; legacy
 * sessions, event streams, input rounds, cancellations, list changes and tasks work whichever replica a request
 * reaches. One topology serves every test of the class.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ScaleOutIT {

    @TempDir
    static Path dir;

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String TASKS = "io.modelcontextprotocol/tasks";

    private static Topology topology;

    @BeforeAll
    static void start() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture", "asking", "live");
        // three replicas start their pods at once: the pod listing its tools live gets the time a loaded machine needs
        Files.writeString(manifests.resolve("live.yaml"), Files.readString(manifests.resolve("live.yaml"))
                .replace("callTimeout: 5s", "callTimeout: 5s\n  startupTimeout: 60s"));
        topology = Topology.start(dir, manifests, 3, true,
                List.of("--task-after", "1s", "--task-ttl", "10m"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (topology != null) {
            topology.close();
        }
    }

    @Test
    void everyReplicaIsRegisteredWithItsAdvertisedUrlAndReady() throws Exception {
        Map<String, String> registered = new TreeMap<>();
        try (Connection c = PostgresServer.dataSource(topology.database()).getConnection();
             Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT id, url FROM gateway_replica")) {
            while (rows.next()) {
                registered.put(rows.getString(2), rows.getString(1));
            }
        }
        assertThat(registered.keySet()).containsExactlyInAnyOrderElementsOf(
                topology.replicas().stream().map(HttpGateway::base).toList());
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> health = topology.get(i, "/healthz");
            JsonNode body = NodeClient.JSON.readTree(health.body());
            assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
            assertThat(body.at("/replica/registered").asBoolean()).isTrue();
            assertThat(body.at("/replica/database").asText()).isEqualTo("reachable");
            assertThat(registered.get(topology.replica(i).base())).isEqualTo(body.at("/replica/id").asText());
        }
    }

    @ParameterizedTest
    @CsvSource({"chrome, chromium", "firefox, firefox-esr"})
    void theConsoleOfAReplicaListsEveryReplicaWithItsHeartbeatAge(String browser, String executable) throws Exception {
        ObjectNode script = NodeClient.JSON.createObjectNode().put("base", topology.replica(1).base())
                .put("browser", browser).put("executable", Tools.required(executable)).put("expect", 3)
                .put("shot", ConsoleIT.SHOTS.resolve("console-replicas-" + browser + ".png").toString());
        Files.createDirectories(ConsoleIT.SHOTS);
        JsonNode page = NodeClient.runScript(InspectorIT.NODE22, "console-replicas.mjs", script);

        assertThat(page.has("failed")).as("%s", page).isFalse();
        assertThat(page.get("consoleErrors")).as("console errors").isEmpty();
        List<String> urls = new ArrayList<>();
        List<String> mine = new ArrayList<>();
        for (JsonNode row : page.get("rows")) {
            urls.add(row.get("URL").asText());
            if (row.get("Replica").asText().endsWith("(this one)")) {
                mine.add(row.get("URL").asText());
            }
            Matcher age = Pattern.compile("([0-9.]+) s").matcher(row.get("Heartbeat age").asText());
            assertThat(age.matches()).as("%s", row).isTrue();
            // heartbeats every 5 s; a replica is gone after 15 s without one
            assertThat(Double.parseDouble(age.group(1))).as("%s", row).isLessThan(15.0);
        }
        assertThat(urls).containsExactlyInAnyOrderElementsOf(topology.replicas().stream().map(HttpGateway::base).toList());
        assertThat(mine).containsExactly(topology.replica(1).base());
        assertThat(page.get("note").asText()).isEmpty();
    }

    @Test
    void toolsListIsTheSameAnswerFromEveryReplica() throws Exception {
        Set<String> servedBy = new TreeSet<>();
        List<JsonNode> lists = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Topology.Answer answer = topology.modern(topology.url(), "tools/list", null, NodeClient.JSON.createObjectNode());
            assertThat(answer.status()).as("%s\n%s", answer, topology.stderr()).isEqualTo(200);
            servedBy.add(answer.servedBy());
            lists.add(answer.body().at("/result/tools"));
        }
        assertThat(servedBy).as("round robin without stickiness").containsExactly("r1", "r2", "r3");
        assertThat(lists.get(0).size()).isGreaterThan(1);
        assertThat(lists).as("tools/list of r1, r2, r3, r1, r2, r3").allSatisfy(tools -> assertThat(tools).isEqualTo(lists.get(0)));
        for (HttpGateway replica : topology.replicas()) {
            Topology.Answer direct = topology.modern(replica.url(), "tools/list", null, NodeClient.JSON.createObjectNode());
            assertThat(direct.body().at("/result/tools")).as("tools/list of %s", replica.url()).isEqualTo(lists.get(0));
        }
    }

    @Test
    void theModernSdkClientIsServedByEveryReplicaThroughTheBalancer() throws Exception {
        List<ObjectNode> steps = new ArrayList<>(List.of(NodeClient.step("listTools")));
        for (int i = 0; i < 6; i++) {
            steps.add(NodeClient.call("fixture__echo", "{\"text\":\"modern " + i + " ✓\"}"));
        }
        steps.add(NodeClient.step("listTools"));
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.url());
        script.putArray("steps").addAll(steps);
        JsonNode session = NodeClient.runModern(script);

        assertThat(session.path("era").asText()).as(session.toString()).isEqualTo("modern");
        assertThat(session.path("version").asText()).isEqualTo("2026-07-28");
        assertThat(session.path("sessionId").isNull()).as("no session on a modern connection").isTrue();
        JsonNode results = session.path("steps");
        for (int i = 0; i < 6; i++) {
            JsonNode call = results.get(i + 1);
            assertThat(call.at("/ok/content/0/text").asText()).as("call %s: %s\n%s", i, call, topology.stderr())
                    .isEqualTo("modern " + i + " ✓");
        }
        assertThat(results.get(7).at("/ok/tools")).as("tools/list before and after").isEqualTo(results.get(0).at("/ok/tools"));
        Topology.Answer raw = topology.modern(topology.url(), "tools/list", null, NodeClient.JSON.createObjectNode());
        assertThat(results.get(0).at("/ok/tools").size()).isEqualTo(raw.body().at("/result/tools").size());
    }

    @Test
    void aModernToolsCallReachesTheSamePodToolOnEveryReplica() throws Exception {
        Set<String> servedBy = new TreeSet<>();
        for (int i = 0; i < 6; i++) {
            ObjectNode params = NodeClient.JSON.createObjectNode().put("name", "fixture__echo");
            params.putObject("arguments").put("text", "raw " + i);
            Topology.Answer answer = topology.modern(topology.url(), "tools/call", "fixture__echo", params);
            assertThat(answer.body().at("/result/content/0/text").asText()).as("%s\n%s", answer, topology.stderr())
                    .isEqualTo("raw " + i);
            assertThat(answer.body().at("/result/resultType").asText()).isEqualTo("complete");
            servedBy.add(answer.servedBy());
        }
        assertThat(servedBy).containsExactly("r1", "r2", "r3");
    }

    @Test
    void aLegacySdkSessionContinuesOnEveryReplica() throws Exception {
        double[] before = toolCalls();
        List<ObjectNode> steps = new ArrayList<>(List.of(NodeClient.step("listTools")));
        for (int i = 0; i < 6; i++) {
            steps.add(NodeClient.call("fixture__echo", "{\"text\":\"legacy " + i + " ✓\"}"));
        }
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.url());
        script.putArray("steps").addAll(steps);
        JsonNode session = NodeClient.run(script);

        assertThat(session.path("sessionId").asText()).as(session.toString()).isNotBlank();
        for (int i = 0; i < 6; i++) {
            JsonNode call = session.path("steps").get(i + 1);
            assertThat(call.at("/ok/content/0/text").asText()).as("call %s: %s\n%s", i, call, topology.stderr())
                    .isEqualTo("legacy " + i + " ✓");
        }
        double[] after = toolCalls();
        for (int r = 0; r < 3; r++) {
            assertThat(after[r] - before[r]).as("calls of the one session served by r%s", r + 1).isPositive();
        }
        assertThat(after[0] + after[1] + after[2] - before[0] - before[1] - before[2]).isEqualTo(6);
    }

    @Test
    void aSessionOpenedThroughTheBalancerIsServedByEachReplicaAndDeleteEndsItOnAll() throws Exception {
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.url());
        script.putArray("steps").add(NodeClient.call("fixture__echo", "{\"text\":\"opened\"}"));
        JsonNode session = NodeClient.run(script);
        String id = session.path("sessionId").asText();
        assertThat(session.at("/steps/0/ok/content/0/text").asText()).as(session.toString()).isEqualTo("opened");

        for (int r = 0; r < 3; r++) {
            ObjectNode params = NodeClient.JSON.createObjectNode().put("name", "fixture__echo");
            params.putObject("arguments").put("text", "on r" + (r + 1));
            Topology.Answer answer = topology.legacy(topology.replica(r).url(), id, "tools/call", params);
            assertThat(answer.status()).as("%s\n%s", answer, topology.stderr()).isEqualTo(200);
            assertThat(answer.body().at("/result/content/0/text").asText()).isEqualTo("on r" + (r + 1));
        }
        Topology.Answer deleted = topology.delete(topology.url(), id);
        assertThat(deleted.status()).as(deleted.toString()).isBetween(200, 204);
        for (int r = 0; r < 3; r++) {
            Topology.Answer after = topology.legacy(topology.replica(r).url(), id, "tools/list", NodeClient.JSON.createObjectNode());
            assertThat(after.status()).as("r%s after DELETE through %s: %s", r + 1, deleted.servedBy(), after).isEqualTo(404);
        }
    }

    @Test
    void anEventStreamResumedOnAnotherReplicaLosesAndRepeatsNothing() throws Exception {
        echoThroughTheBalancer("events before", 3);
        List<Long> first = eventSeqs(2, 0);
        assertThat(first).as("events in the shared log").hasSizeGreaterThanOrEqualTo(2);
        long resumeAfter = first.get(first.size() / 2 - 1);
        List<Long> read = stream(0, null, resumeAfter);
        assertThat(read).isEqualTo(first.subList(0, first.size() / 2));

        echoThroughTheBalancer("events after", 3);
        List<Long> expected = eventSeqs(2, resumeAfter);
        assertThat(expected.size()).isGreaterThan(first.size() - first.size() / 2);
        List<Long> resumed = stream(1, resumeAfter, expected.get(expected.size() - 1));
        assertThat(resumed).as("resumed on r2 after %s", resumeAfter).isEqualTo(expected);
    }

    @Test
    void aModernClientsInputRoundsRetriedThroughTheBalancerReachTheReplicaThatRunsTheCall() throws Exception {
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.url());
        script.set("capabilities", NodeClient.JSON.readTree(BridgeStdioIT.ALL_CAPABILITIES));
        ObjectNode answers = script.putObject("answers");
        for (String method : List.of("elicitation/create", "sampling/createMessage", "roots/list")) {
            answers.set(method, BridgeStdioIT.answerTo(method));
        }
        String arguments = BridgeStdioIT.rounds("[" + BridgeStdioIT.ELICIT + "]", "[" + BridgeStdioIT.SAMPLE + "]",
                "[" + BridgeStdioIT.ROOTS + "]");
        script.putArray("steps").add(NodeClient.call("asking__ask", arguments)).add(NodeClient.call("asking__ask", arguments));
        JsonNode session = NodeClient.runModern(script);

        for (int i = 0; i < 2; i++) {
            JsonNode done = session.get("steps").get(i);
            assertThat(done.has("ok")).as("%s\n%s", done, topology.stderr()).isTrue();
            assertThat(done.at("/ok/structuredContent/answers/0/0/result")).isEqualTo(BridgeStdioIT.answerTo("elicitation/create"));
            assertThat(done.at("/ok/structuredContent/answers/1/0/result/content/text").asText()).isEqualTo("sampled");
            assertThat(done.at("/ok/structuredContent/answers/2/0/result")).isEqualTo(BridgeStdioIT.answerTo("roots/list"));
        }
        assertThat(session.get("inputs")).as("three rounds of each call, each retried on the next replica").hasSize(6);
    }

    @Test
    void aLegacyCancellationThatReachesAnotherReplicaCancelsTheCallAtItsPod() throws Exception {
        Path record = dir.resolve("record.txt");
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.url());
        ArrayNode steps = script.putArray("steps");
        for (int i = 1; i <= 2; i++) {
            steps.add(NodeClient.call("fixture__slow", "{\"seconds\":20,\"steps\":100}").put("cancelAfterProgress", 2));
            steps.add(NodeClient.step("waitLines").put("path", record.toString()).put("prefix", "cancelled ").put("count", i)
                    .put("timeoutMs", 10_000));
        }
        steps.add(NodeClient.call("fixture__echo", "{\"text\":\"after the cancellations\"}"));
        JsonNode session = NodeClient.run(script);

        JsonNode results = session.path("steps");
        assertThat(results.get(0).has("error")).as("%s", results.get(0)).isTrue();
        assertThat(results.get(1).has("ok")).as("the pod saw the first cancellation: %s\n%s", results.get(1), topology.stderr()).isTrue();
        assertThat(results.get(3).has("ok")).as("the pod saw the second cancellation: %s", results.get(3)).isTrue();
        assertThat(results.get(4).at("/ok/content/0/text").asText()).isEqualTo("after the cancellations");
    }

    @Test
    void aReplicaToReplicaRequestWithoutAValidSignatureIsRefused403() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        ClusterKey key = ClusterKey.of(Files.readString(topology.clusterKey()).strip().getBytes(StandardCharsets.UTF_8));
        ClusterKey forged = ClusterKey.of("not the cluster's key, 32 bytes!".getBytes(StandardCharsets.UTF_8));
        long now = System.currentTimeMillis();
        String path = Forwarder.PATH;
        String forgedBody = body.replace("tools/list", "tools/call");
        for (int r = 0; r < 3; r++) {
            String url = topology.replica(r).base() + path;
            assertThat(forward(url, body, null, null).statusCode()).as("no signature").isEqualTo(403);
            assertThat(forward(url, body, now, forged.sign("POST", path, now, bytes(body))).statusCode()).as("another key").isEqualTo(403);
            assertThat(forward(url, forgedBody, now, key.sign("POST", path, now, bytes(body))).statusCode())
                    .as("the signature of another body").isEqualTo(403);
            long stale = now - ClusterKey.MAX_AGE.toMillis() - 60_000;
            assertThat(forward(url, body, stale, key.sign("POST", path, stale, bytes(body))).statusCode()).as("a stale signature").isEqualTo(403);
            HttpResponse<String> signed = forward(url, body, now, key.sign("POST", path, now, bytes(body)));
            assertThat(signed.statusCode()).as("signed with the cluster key: %s", signed.body()).isEqualTo(200);
        }
        HttpResponse<String> throughBalancer = forward(topology.balancer().base() + path, body, null, null);
        assertThat(throughBalancer.statusCode()).isEqualTo(403);
        assertThat(topology.stderr()).doesNotContain(Files.readString(topology.clusterKey()).strip());
    }

    @Test
    void requestsAboutAReplicaThatIsGoneFailWithMinus32002NamingIt() throws Exception {
        ClusterKey key = ClusterKey.of(Files.readString(topology.clusterKey()).strip().getBytes(StandardCharsets.UTF_8));
        ObjectNode retry = echo("re-issued");
        retry.put("requestState", requestStateOf(key, "r-00000000dead"));
        Topology.Answer lost = topology.modern(topology.url(), "tools/call", "fixture__echo", retry);
        assertThat(lost.body().at("/error/code").asInt()).as("%s", lost).isEqualTo(-32002);
        assertThat(lost.body().at("/error/message").asText()).contains("r-00000000dead").contains("re-issue");

        for (String method : List.of("tasks/get", "tasks/cancel")) {
            ObjectNode params = NodeClient.JSON.createObjectNode().put("taskId", "r-00000000dead:fixture+t1");
            Topology.Answer task = topology.modernTasks(topology.url(), method, "r-00000000dead:fixture+t1", params);
            assertThat(task.body().at("/error/code").asInt()).as("%s %s", method, task).isEqualTo(-32002);
            assertThat(task.body().at("/error/data/replica").asText()).isEqualTo("r-00000000dead");
        }
    }

    /**
     * A pod's tool list changing on a replica is announced to the legacy GET streams that replica holds, also of
     * sessions opened on another replica.
     */
    @Nested
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    class ListChanges {

        @Test
        void aReplicaAnnouncesItsPodsListChangeToTheStreamsItHoldsOfSessionsOpenedElsewhere() throws Exception {
            List<BlockingQueue<String>> streams = new ArrayList<>();
            List<String> sessions = new ArrayList<>();
            List<HttpResponse<Stream<String>>> opened = new ArrayList<>();
            try {
                for (int r = 0; r < 3; r++) {
                    String session = topology.openLegacy(topology.replica((r + 1) % 3).url());
                    sessions.add(session);
                    HttpResponse<Stream<String>> stream = HTTP.send(HttpRequest.newBuilder(URI.create(topology.replica(r).url()))
                            .header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                            .header("MCP-Protocol-Version", "2025-11-25").GET().build(), HttpResponse.BodyHandlers.ofLines());
                    assertThat(stream.statusCode()).as("the GET stream of r%s's session on r%s", (r + 1) % 3 + 1, r + 1)
                            .isEqualTo(200);
                    opened.add(stream);
                    streams.add(lines(stream));
                }
                for (int r = 0; r < 3; r++) {
                    int replica = r;
                    await("the live pod of r" + (r + 1) + " listed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                            .untilAsserted(() -> assertThat(topology.modern(topology.replica(replica).url(), "tools/list", null,
                                    NodeClient.JSON.createObjectNode()).body().toString()).as(topology.stderr()).contains("live__grow"));
                    Topology.Answer grown = topology.modern(topology.replica(r).url(), "tools/call", "live__grow",
                            NodeClient.JSON.createObjectNode().put("name", "live__grow"));
                    assertThat(grown.body().at("/result/content/0/text").asText()).as("%s", grown).startsWith("grown to");
                    assertThat(nextMessage(streams.get(r)).path("method").asText()).as("the stream held by r%s", r + 1)
                            .isEqualTo("notifications/tools/list_changed");
                }
                for (int r = 0; r < 3; r++) {
                    Topology.Answer listed = topology.legacy(topology.replica(r).url(), sessions.get(r), "tools/list",
                            NodeClient.JSON.createObjectNode());
                    assertThat(listed.body().at("/result/tools").toString()).as("r%s", r + 1).contains("live__extra1");
                }
            } finally {
                opened.forEach(stream -> stream.body().close());
                for (String session : sessions) {
                    topology.delete(topology.url(), session);
                }
            }
        }

        private static BlockingQueue<String> lines(HttpResponse<Stream<String>> stream) {
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try {
                    stream.body().forEach(lines::add);
                } catch (RuntimeException e) {
                    // the stream was closed by the test
                }
                lines.add("<end>");
            }, "get-stream-reader");
            reader.setDaemon(true);
            reader.start();
            return lines;
        }

        private static JsonNode nextMessage(BlockingQueue<String> lines) throws Exception {
            while (true) {
                String line = lines.poll(30, TimeUnit.SECONDS);
                assertThat(line).as("no message within 30 s").isNotNull().isNotEqualTo("<end>");
                if (line.startsWith("data:") && line.length() > 5) {
                    return NodeClient.JSON.readTree(line.substring(5).strip());
                }
            }
        }
    }

    /**
     * A modern client's call slower than {@code --task-after} becomes a task of the replica running it; through the
     * balancer every replica answers {@code tasks/get} from the database, and {@code tasks/cancel} reaching another
     * replica is forwarded to the owner, which cancels the call at its pod.
     */
    @Nested
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    class Tasks {

        @Test
        void aLongCallBecomesATaskThatEveryReplicaAnswersThroughTheBalancer() throws Exception {
            ObjectNode sleep = NodeClient.JSON.createObjectNode().put("name", "fixture__sleep");
            sleep.putObject("arguments").put("seconds", 3);
            Topology.Answer handle = topology.modernTasks(topology.url(), "tools/call", "fixture__sleep", sleep);
            assertThat(handle.body().at("/result/resultType").asText()).as("%s\n%s", handle, topology.stderr()).isEqualTo("task");
            String taskId = handle.body().at("/result/taskId").asText();
            String owner = replicaId(handle.servedBy());
            assertThat(taskId).startsWith(owner + ":task-");

            Set<String> answeredBy = new TreeSet<>();
            List<String> statuses = new ArrayList<>();
            await("the task completed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                Topology.Answer got = topology.modernTasks(topology.url(), "tasks/get", taskId,
                        NodeClient.JSON.createObjectNode().put("taskId", taskId));
                answeredBy.add(got.servedBy());
                statuses.add(got.body().at("/result/status").asText());
                if (!"completed".equals(statuses.get(statuses.size() - 1))) {
                    return false;
                }
                assertThat(got.body().at("/result/result/content/0/text").asText()).as("%s", got).isEqualTo("slept");
                return answeredBy.size() == 3;
            });
            assertThat(statuses).as("tasks/get answered by r1, r2, r3").contains("working").endsWith("completed")
                    .allSatisfy(status -> assertThat(status).isIn("working", "completed"));
        }

        @Test
        void aTaskCancelledOnAnotherReplicaIsCancelledAtTheOwnersPod() throws Exception {
            ObjectNode slow = NodeClient.JSON.createObjectNode().put("name", "fixture__slow");
            slow.putObject("arguments").put("seconds", 8).put("steps", 40);
            int before = cancellations();
            Topology.Answer handle = topology.modernTasks(topology.url(), "tools/call", "fixture__slow", slow);
            String taskId = handle.body().at("/result/taskId").asText();
            assertThat(taskId).as("%s", handle).contains(":task-");
            int other = ("r1".equals(handle.servedBy()) ? 1 : 0);
            Topology.Answer cancelled = topology.modernTasks(topology.replica(other).url(), "tasks/cancel", taskId,
                    NodeClient.JSON.createObjectNode().put("taskId", taskId));
            assertThat(cancelled.body().at("/result/status").asText()).as("%s", cancelled).isEqualTo("cancelled");
            await("the owner's pod saw the cancellation").atMost(Duration.ofSeconds(10))
                    .until(() -> cancellations() > before);
            for (int r = 0; r < 3; r++) {
                Topology.Answer after = topology.modernTasks(topology.replica(r).url(), "tasks/get", taskId,
                        NodeClient.JSON.createObjectNode().put("taskId", taskId));
                assertThat(after.body().at("/result/status").asText()).as("r%s: %s", r + 1, after).isEqualTo("cancelled");
            }
        }

        private static int cancellations() throws Exception {
            return (int) NodeClient.recorded(dir).stream().filter(line -> line.startsWith("cancelled ")).count();
        }

        /** The id of the replica the balancer names {@code served} ({@code r1}, ...). */
        private static String replicaId(String served) throws Exception {
            int index = Integer.parseInt(served.substring(1)) - 1;
            return NodeClient.JSON.readTree(topology.get(index, "/healthz").body()).at("/replica/id").asText();
        }
    }

    /** A requestState sealed as the cluster's replica {@code owner} would seal it. */
    private static String requestStateOf(ClusterKey key, String owner) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.derive("requestState"), "HmacSHA256"));
        byte[] payload = bytes("{\"v\":1,\"call\":\"c1\",\"round\":1,\"tool\":\"fixture__echo\",\"args\":\"a\",\"caller\":\"k\","
                + "\"exp\":" + (System.currentTimeMillis() + 600_000) + ",\"owner\":\"" + owner + "\"}");
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString(payload) + "." + b64.encodeToString(mac.doFinal(payload));
    }

    private static ObjectNode echo(String text) {
        ObjectNode params = NodeClient.JSON.createObjectNode().put("name", "fixture__echo");
        params.putObject("arguments").put("text", text);
        return params;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> forward(String url, String body, Long timestamp, String signature) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list")
                .header(ClusterKey.REPLICA_HEADER, "forger").POST(HttpRequest.BodyPublishers.ofString(body));
        if (timestamp != null) {
            request.header(ClusterKey.TIMESTAMP_HEADER, Long.toString(timestamp));
        }
        if (signature != null) {
            request.header(ClusterKey.SIGNATURE_HEADER, signature);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void echoThroughTheBalancer(String text, int times) throws Exception {
        for (int i = 0; i < times; i++) {
            ObjectNode params = NodeClient.JSON.createObjectNode().put("name", "fixture__echo");
            params.putObject("arguments").put("text", text);
            Topology.Answer answer = topology.modern(topology.url(), "tools/call", "fixture__echo", params);
            assertThat(answer.body().at("/result/content/0/text").asText()).as(answer.toString()).isEqualTo(text);
        }
    }

    /** The seqs of every event after {@code afterSeq} in the shared log, as {@code GET /meta/events} of a replica gives them. */
    private static List<Long> eventSeqs(int replica, long afterSeq) throws Exception {
        List<Long> seqs = new ArrayList<>();
        long after = afterSeq;
        while (true) {
            HttpResponse<String> page = topology.get(replica, "/meta/events?limit=10000&after_seq=" + after);
            assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
            JsonNode body = NodeClient.JSON.readTree(page.body());
            body.path("events").forEach(e -> seqs.add(e.path("seq").asLong()));
            if (body.path("next_after_seq").isNull() || body.path("next_after_seq").isMissingNode()) {
                return seqs;
            }
            after = body.path("next_after_seq").asLong();
        }
    }

    /** Reads {@code /meta/events/stream} of a replica (resuming after {@code lastEventId}) up to the event {@code untilSeq}. */
    private static List<Long> stream(int replica, Long lastEventId, long untilSeq) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(topology.replica(replica).base() + "/meta/events/stream"))
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(10));
        if (lastEventId != null) {
            request.header("Last-Event-ID", Long.toString(lastEventId));
        }
        return assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            HttpResponse<Stream<String>> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofLines());
            assertThat(response.statusCode()).isEqualTo(200);
            List<Long> seqs = new ArrayList<>();
            try (Stream<String> lines = response.body()) {
                Iterator<String> it = lines.iterator();
                while (it.hasNext()) {
                    String line = it.next();
                    if (line.startsWith("id:")) {
                        long seq = Long.parseLong(line.substring(3).strip());
                        seqs.add(seq);
                        if (seq >= untilSeq) {
                            return seqs;
                        }
                    }
                }
            }
            throw new AssertionError("the stream ended after " + seqs);
        });
    }

    /** Tool calls each replica served so far (its {@code meta_gateway_tool_calls_seconds_count}, summed). */
    private static double[] toolCalls() throws Exception {
        double[] calls = new double[3];
        Pattern count = Pattern.compile("(?m)^meta_gateway_tool_calls_seconds_count(?:\\{[^}]*\\})? ([0-9.eE+-]+)$");
        for (int r = 0; r < 3; r++) {
            Matcher m = count.matcher(topology.get(r, "/metrics").body());
            while (m.find()) {
                calls[r] += Double.parseDouble(m.group(1));
            }
        }
        return calls;
    }
}
