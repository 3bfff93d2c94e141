package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.gateway.NodeClient.call;
import static org.metaruntime.gateway.NodeClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway as MCP clients use it: the TypeScript SDK client spawns {@code bin/meta-gateway} over stdio and
 * talks to real pods (python MCP servers and a bare JSON-RPC program). Every test checks that the gateway and
 * every pod are gone after the session. The scenarios of the {@code fixture} pod that leave it as they found it share
 * one session ({@link SharedSession}), each reading back its own steps; those that change the pod's manifest or
 * use another pod have their own.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewaySessionIT {

    /** The folder of the shared session: its manifests, pid files and the pod's record. */
    @TempDir
    static Path shared;
    private final SharedSession fixture = new SharedSession();

    /** The transport the client uses; the HTTP subclasses run every scenario over their transport. */
    NodeClient.Transport transport() {
        return NodeClient.Transport.STDIO;
    }

    @BeforeAll
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void runTheSharedSession() throws Exception {
        fixture.part("initialize", List.of(step("info"), step("listTools"), call("meta__status", "{}"),
                        step("readResource").put("uri", "meta://status"), step("ping")))
                .part("spawn", List.of(echo(UNICODE), call("meta__status", "{}"), call("fixture__image", "{}")))
                .part("inFlight", List.of(call("meta__status", "{}"), sixtyFourEchoes(), call("meta__status", "{}")))
                .part("progress", List.of(call("fixture__slow", "{\"seconds\": 1, \"steps\": 4}").put("progress", true),
                        call("fixture__slow", "{\"seconds\": 2.5, \"steps\": 10}").put("cancelAfterProgress", 2),
                        step("waitLines").put("path", shared.resolve("record.txt").toString())
                                .put("prefix", "cancelled ").put("count", 1)))
                .part("sampling", List.of(call("fixture__sample", "{\"prompt\": \"こんにちは\"}")))
                .part("resources", resourceSteps())
                .part("logs", List.of(step("setLevel").put("level", "warning"),
                        call("fixture__log", "{\"level\": \"info\", \"text\": \"quiet\"}"),
                        call("fixture__log", "{\"level\": \"error\", \"text\": \"loud 🎉\"}"),
                        step("waitLogs").put("count", 1),
                        step("setLevel").put("level", "debug"),
                        call("fixture__log", "{\"level\": \"debug\", \"text\": \"chatty\"}"),
                        step("waitLogs").put("count", 2)));
        fixture.ran(session(shared, NodeClient.manifests(shared, shared.resolve("pids"), "fixture"), fixture.steps()));
    }

    private JsonNode session(Path dir, List<ObjectNode> steps, String... pods) throws Exception {
        return session(dir, NodeClient.manifests(dir, dir.resolve("pids"), pods), steps);
    }

    private JsonNode session(Path dir, Path manifests, List<ObjectNode> steps) throws Exception {
        JsonNode session = NodeClient.session(transport(), List.of("--manifests", manifests.toString()), steps);
        NodeClient.assertAllGone(session, dir.resolve("pids"));
        return session;
    }

    private static JsonNode ok(JsonNode session, int step) {
        JsonNode s = session.get("steps").get(step);
        assertThat(s.has("ok")).as("step %d: %s (gateway stderr: %s)", step, s, session.path("stderr").asText()).isTrue();
        return s.get("ok");
    }

    private static JsonNode error(JsonNode session, int step) {
        JsonNode s = session.get("steps").get(step);
        assertThat(s.has("error")).as("step %d: %s", step, s).isTrue();
        return s.get("error");
    }

    /** The pod processes the shared session started: one, started by its first call. */
    private int sharedPidCount() throws Exception {
        try (var files = Files.list(shared.resolve("pids"))) {
            return (int) files.count();
        }
    }

    private static final String UNICODE = "日本語 🎉 \"quoted\" \\ back\nslash";

    private static ObjectNode echo(String text) {
        ObjectNode echo = step("call").put("name", "fixture__echo");
        echo.putObject("arguments").put("text", text);
        return echo;
    }

    private static ObjectNode sixtyFourEchoes() {
        ObjectNode parallel = step("parallel").put("count", 64).put("expect", "m$i");
        parallel.set("call", call("fixture__echo", "{\"text\": \"m$i\"}"));
        return parallel;
    }

    private static List<ObjectNode> resourceSteps() {
        ObjectNode complete = step("complete");
        complete.putObject("ref").put("type", "ref/prompt").put("name", "fixture__greet");
        complete.putObject("argument").put("name", "who").put("value", "A");
        ObjectNode getPrompt = step("getPrompt").put("name", "fixture__greet");
        getPrompt.putObject("arguments").put("who", "Ada");
        return List.of(call("fixture__echo", "{\"text\": \"start\"}"), step("listResources"),
                step("readResource").put("uri", "fixture://greeting"), step("listTemplates"),
                step("readResource").put("uri", "fixture://items/42"), step("listPrompts"), getPrompt, complete);
    }

    @Test
    void initializeAndListWithoutSpawningAnything() throws Exception {
        JsonNode session = fixture.of("initialize");
        JsonNode info = ok(session, 0);
        assertThat(info.at("/capabilities/tools/listChanged").asBoolean()).isTrue();
        assertThat(info.at("/capabilities/logging").isObject()).isTrue();
        assertThat(info.at("/serverInfo/name").asText()).isEqualTo("meta-gateway");
        List<String> names = new ArrayList<>();
        ok(session, 1).get("tools").forEach(t -> names.add(t.get("name").asText()));
        assertThat(names).as("sorted by outward name").containsExactly("fixture__crash", "fixture__echo", "fixture__image",
                "fixture__log", "fixture__meta", "fixture__sample", "fixture__sleep", "fixture__slow", "meta__status");
        assertThat(ok(session, 1).at("/tools/1/inputSchema/required/0").asText()).isEqualTo("text");
        JsonNode status = ok(session, 2).get("structuredContent");
        assertThat(status.at("/pods/fixture/state").asText()).isEqualTo("NotStarted");
        assertThat(status.at("/pods/fixture/pid").isNull()).isTrue();
        assertThat(status.at("/pods/fixture/tools/0/schemaHash").asText()).startsWith("sha256:");
        JsonNode resource = NodeClient.JSON.readTree(ok(session, 3).at("/contents/0/text").asText());
        assertThat(resource.at("/pods/fixture/state").asText()).isEqualTo("NotStarted");
        assertThat(fixture.of("spawn").at("/steps/1/ok/structuredContent/pods/fixture/callsServed").asLong())
                .as("the first call after the listing is the pod's first").isEqualTo(1);
        assertThat(sharedPidCount()).as("pods spawned in the whole session (by its first call only)").isEqualTo(1);
    }

    @Test
    void aCallSpawnsThePodAndUnicodePassesUnchanged() throws Exception {
        JsonNode session = fixture.of("spawn");
        JsonNode result = ok(session, 0);
        assertThat(result.at("/content/0/text").asText()).isEqualTo(UNICODE);
        assertThat(result.at("/structuredContent/echo").asText()).isEqualTo(UNICODE);
        JsonNode status = ok(session, 1).get("structuredContent");
        assertThat(status.at("/pods/fixture/callsServed").asLong()).isEqualTo(1);
        assertThat(status.at("/pods/fixture/pid").asLong()).isPositive();
        JsonNode mixed = ok(session, 2);
        assertThat(mixed.get("content")).hasSize(3);
        assertThat(mixed.at("/content/1/type").asText()).isEqualTo("image");
        assertThat(mixed.at("/content/2/type").asText()).isEqualTo("resource_link");
        assertThat(mixed.at("/structuredContent/kind").asText()).isEqualTo("mixed");
        assertThat(sharedPidCount()).isEqualTo(1);
    }

    @Test
    void errorsNameThePodAndTheTool(@TempDir Path dir) throws Exception {
        ObjectNode unknownMethod = step("request").put("method", "foo/bar").put("schema", "any");
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        NodeClient.callTimeout(manifests.resolve("fixture.yaml"), "2s");
        JsonNode session = session(dir, manifests, List.of(call("nope__nothing", "{}"), call("fixture__echo", "{\"text\": 5}"),
                unknownMethod, call("fixture__sleep", "{\"seconds\": 5}")));
        JsonNode unknown = error(session, 0);
        assertThat(unknown.get("code").asInt()).isEqualTo(-32602);
        assertThat(unknown.get("message").asText()).endsWith("unknown tool: nope__nothing");
        JsonNode invalid = error(session, 1);
        assertThat(invalid.get("code").asInt()).isEqualTo(-32602);
        assertThat(invalid.get("message").asText()).contains("pod fixture tool echo: invalid arguments");
        assertThat(invalid.at("/data/violations").asText()).contains("text");
        assertThat(error(session, 2).get("code").asInt()).isEqualTo(-32601);
        JsonNode timeout = error(session, 3);
        assertThat(timeout.get("code").asInt()).isEqualTo(-32001);
        assertThat(timeout.get("message").asText()).contains("pod fixture tool sleep: the call timed out after 2000 ms");
    }

    @Test
    void progressReachesTheClientAndCancellationReachesThePod() throws Exception {
        JsonNode session = fixture.of("progress");
        JsonNode first = session.get("steps").get(0);
        assertThat(first.at("/ok/content/0/text").asText()).isEqualTo("done after 4 steps");
        assertThat(first.get("progress")).hasSize(4);
        assertThat(first.at("/progress/3/message").asText()).isEqualTo("step 4 ✓");
        assertThat(first.at("/progress/3/total").asInt()).isEqualTo(4);
        JsonNode cancelled = session.get("steps").get(1);
        assertThat(cancelled.has("error")).as(cancelled.toString()).isTrue();
        assertThat(cancelled.get("progress").size()).isGreaterThanOrEqualTo(2);
        ok(session, 2);
        assertThat(NodeClient.recorded(shared)).anyMatch(line -> line.startsWith("cancelled "));
    }

    @Test
    void samplingDuringACallGoesToTheCallingClient() throws Exception {
        JsonNode session = fixture.of("sampling");
        assertThat(ok(session, 0).at("/content/0/text").asText()).isEqualTo("sampled: こんにちは");
        assertThat(session.get("sampled").asInt()).as("sampling requests in the whole session").isEqualTo(1);
    }

    @Test
    void podLogLinesFollowTheClientsLevel() throws Exception {
        JsonNode logs = fixture.of("logs").get("logs");
        assertThat(logs).as("log lines in the whole session").hasSize(2);
        assertThat(logs.get(0).get("data").asText()).isEqualTo("loud 🎉");
        assertThat(logs.get(0).get("logger").asText()).isEqualTo("fixture");
        assertThat(logs.get(0).get("level").asText()).isEqualTo("error");
        assertThat(logs.get(1).get("data").asText()).isEqualTo("chatty");
    }

    @Test
    void resourcesPromptsAndCompletionOfRunningPods() throws Exception {
        JsonNode session = fixture.of("resources");
        List<String> uris = new ArrayList<>();
        ok(session, 1).get("resources").forEach(r -> uris.add(r.get("uri").asText()));
        assertThat(uris).containsExactly("meta://status", "fixture://greeting");
        assertThat(ok(session, 2).at("/contents/0/text").asText()).isEqualTo("こんにちは 🎉");
        assertThat(ok(session, 3).at("/resourceTemplates/0/uriTemplate").asText()).isEqualTo("fixture://items/{id}");
        assertThat(ok(session, 4).at("/contents/0/text").asText()).isEqualTo("item 42");
        assertThat(ok(session, 5).at("/prompts/0/name").asText()).isEqualTo("fixture__greet");
        assertThat(ok(session, 6).at("/messages/0/content/text").asText()).isEqualTo("Say hello to Ada");
        assertThat(ok(session, 7).at("/completion/values").toString()).isEqualTo("[\"Ada\",\"Alan\"]");
    }

    @Test
    void aPodWithoutDeclaredToolsIsListedLiveAndItsListChangesAreAnnounced(@TempDir Path dir) throws Exception {
        JsonNode session = session(dir, List.of(step("listTools"), step("listChangedCount"), call("live__grow", "{}"),
                step("waitTool").put("name", "live__extra1"), call("live__extra1", "{}")), "live");
        List<String> before = new ArrayList<>();
        ok(session, 0).get("tools").forEach(t -> before.add(t.get("name").asText()));
        assertThat(before).as("gateway stderr: %s", session.path("stderr").asText())
                .contains("meta__status", "live__echo", "live__grow").doesNotContain("live__extra1");
        int announcedBefore = ok(session, 1).asInt();
        assertThat(ok(session, 3).get("listChanged").asInt()).as("list_changed after the pod's tools changed")
                .isGreaterThan(announcedBefore);
        assertThat(ok(session, 4).at("/content/0/text").asText()).isEqualTo("extra1");
    }

    @Test
    void sixtyFourCallsInFlightFromOneClientNoneLost() throws Exception {
        JsonNode session = fixture.of("inFlight");
        JsonNode result = ok(session, 1);
        assertThat(result.get("ok").asInt()).as(result.toString()).isEqualTo(64);
        assertThat(result.get("mismatched").asInt()).isZero();
        long before = ok(session, 0).at("/structuredContent/pods/fixture/callsServed").asLong();
        assertThat(ok(session, 2).at("/structuredContent/pods/fixture/callsServed").asLong() - before).isEqualTo(64);
    }
}
