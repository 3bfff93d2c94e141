package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.metaruntime.gateway.NodeClient.call;
import static org.metaruntime.gateway.NodeClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod that speaks only MCP 2026-07-28 (the TypeScript SDK v2 server, {@code modern_pod.mjs}) behind
 * {@code bin/meta-gateway}: found by the {@code server/discover} probe, never sent {@code initialize}, {@code ping} or
 * {@code logging/setLevel}, called by a legacy client (TypeScript SDK 1.x) and by a modern one (SDK v2 pinned to
 * 2026-07-28); its {@code input_required} becomes an elicitation request to the legacy client. Every test checks that
 * the gateway and the pod are gone after the session.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ModernPodsIT {

    @TempDir
    Path dir;

    private Path pids() {
        return dir.resolve("pids");
    }

    /**
     * The pod's manifest with {@code spec.protocolEra: era}. The tests pin {@code modern} (the probe, with the whole
     * startup timeout to be answered): on a loaded machine node may need more than the 2 s bound of {@code auto} to
     * start and answer it, and {@code auto} then rightly takes the pod for a legacy one. How {@code auto} finds this
     * server is ModernServerTest's, on a clock that stands still.
     */
    private Path manifests(String era) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("manifests"));
        Files.createDirectories(pids());
        Files.writeString(folder.resolve("modern.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata:
                  name: modern
                spec:
                  command: ["%s", "modern_pod.mjs"]
                  workdir: "%s"
                  env: { FIXTURE_PID_DIR: "%s", FIXTURE_RECORD: "%s" }
                  protocolEra: %s
                """.formatted(Repo.tool("node"), NodeClient.NODE_DIR, pids(), dir.resolve("record.txt"), era));
        return folder;
    }

    private static JsonNode ok(JsonNode session, int step) {
        JsonNode s = session.get("steps").get(step);
        assertThat(s.has("ok")).as("step %d: %s (gateway stderr: %s)", step, s, session.path("stderr").asText()).isTrue();
        return s.get("ok");
    }

    private JsonNode whoami(JsonNode session, int step) throws Exception {
        return NodeClient.JSON.readTree(ok(session, step).at("/content/0/text").asText());
    }

    private void assertServedAsModern() throws Exception {
        List<String> methods = NodeClient.recorded(dir).stream().filter(l -> l.startsWith("method ")).toList();
        assertThat(methods).as("what the pod read").first().isEqualTo("method server/discover");
        assertThat(methods).contains("method subscriptions/listen", "method tools/list", "method tools/call")
                .doesNotContain("method initialize", "method notifications/initialized", "method ping",
                        "method logging/setLevel");
        List<String> own = NodeClient.recorded(dir).stream().filter(l -> l.startsWith("capabilities ")
                && !l.startsWith("capabilities tools/call ")).toList();
        assertThat(own).as("the gateway's own requests").isNotEmpty()
                .allSatisfy(l -> assertThat(l).as("the gateway's own request declares no capability").endsWith(" {}"));
    }

    @Test
    void aLegacyClientCallsAModernPodAndAnswersItsInputRequests() throws Exception {
        // the pod pauses delayMs before its result: the TypeScript SDK 1.x client drops a progress read with the result
        ObjectNode slow = call("modern__slow", "{\"steps\":3,\"delayMs\":150}").put("progress", true);
        JsonNode session = NodeClient.session(List.of("--manifests", manifests("modern").toString()), List.of(
                step("listTools"), call("modern__echo", "{\"text\":\"héllo 🎉\"}"), call("modern__whoami", "{}"),
                call("modern__ask", "{}"), slow));
        NodeClient.assertAllGone(session, pids());
        assertThat(ok(session, 0).get("tools").findValuesAsText("name")).contains("modern__echo", "modern__ask");
        assertThat(ok(session, 1).at("/content/0/text").asText()).isEqualTo("héllo 🎉");
        JsonNode who = whoami(session, 2);
        assertThat(who.toString()).as("the pod's view of the call").contains("2026-07-28");
        JsonNode capabilities = who.at("/meta/io.modelcontextprotocol~1clientCapabilities");
        if (capabilities.isMissingNode()) {
            capabilities = who.at("/envelope/io.modelcontextprotocol~1clientCapabilities");
        }
        assertThat(capabilities.has("elicitation") && capabilities.has("sampling") && capabilities.has("roots"))
                .as("the legacy client's declared capabilities: %s", who).isTrue();
        assertThat(who.at("/meta/mcp-meta~1call").isTextual()).as("%s", who).isTrue();
        assertThat(ok(session, 3).at("/content/0/text").asText()).isEqualTo("answered: accept {\"answer\":\"yes 🎉\"}");
        JsonNode progressed = session.get("steps").get(4);
        assertThat(progressed.at("/ok/content/0/text").asText()).as("%s", progressed).isEqualTo("done 3");
        assertThat(progressed.get("progress")).hasSize(3);
        assertServedAsModern();
    }

    @Test
    void aModernClientCallsAModernPodAndCancels() throws Exception {
        JsonNode session = NodeClient.modernSession(NodeClient.Transport.STDIO,
                List.of("--manifests", manifests("modern").toString()), List.of(
                        call("modern__echo", "{\"text\":\"x\"}"), call("modern__whoami", "{}"),
                        call("modern__slow", "{\"steps\":100,\"delayMs\":100}").put("cancelAfterProgress", 2),
                        call("modern__echo", "{\"text\":\"after\"}"),
                        call("modern__log", "{\"level\":\"warning\",\"text\":\"unasked\"}"),
                        call("modern__log", "{\"level\":\"info\",\"text\":\"below\"}").put("logLevel", "warning"),
                        call("modern__log", "{\"level\":\"error\",\"text\":\"asked ✓\"}").put("logLevel", "warning")));
        NodeClient.assertAllGone(session, pids());
        assertThat(ok(session, 0).at("/content/0/text").asText()).isEqualTo("x");
        JsonNode who = whoami(session, 1);
        assertThat(who.toString()).as("the modern client declared no capability").doesNotContain("elicitation");
        assertThat(session.get("steps").get(2).has("error")).as("%s", session.get("steps").get(2)).isTrue();
        assertThat(ok(session, 3).at("/content/0/text").asText()).isEqualTo("after");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(NodeClient.recorded(dir)).contains("cancelled slow"));
        JsonNode logs = session.get("logs");
        assertThat(logs).as("only the line at or above the level a request asked for: %s", logs).hasSize(1);
        assertThat(logs.at("/0/data").asText()).isEqualTo("asked ✓");
        assertThat(logs.at("/0/logger").asText()).isEqualTo("modern");
        assertServedAsModern();
    }

    @Test
    void aModernClientGetsAModernPodsInputRequestsAsThePodSentThemAndItsRetryReachesThePod() throws Exception {
        ObjectNode script = NodeClient.JSON.createObjectNode();
        script.putObject("capabilities").putObject("elicitation");
        script.putObject("answers").set("elicitation/create",
                NodeClient.JSON.readTree("{\"action\":\"accept\",\"content\":{\"answer\":\"auto\"}}"));
        JsonNode yes = NodeClient.JSON.readTree("{\"q\":{\"action\":\"accept\",\"content\":{\"answer\":\"yes 🎉\"}}}");
        ObjectNode ask = call("modern__ask", "{}").put("op", "callRaw");
        ObjectNode tampered = ask.deepCopy().put("retryOf", 0).put("tamper", true);
        tampered.set("inputResponses", yes);
        ObjectNode retry = ask.deepCopy().put("retryOf", 0);
        retry.set("inputResponses", yes);
        JsonNode session = NodeClient.modernSession(NodeClient.Transport.STDIO,
                List.of("--manifests", manifests("modern").toString()),
                List.of(ask, tampered, retry, retry.deepCopy(), call("modern__ask", "{}")), script);
        NodeClient.assertAllGone(session, pids());

        JsonNode asked = ok(session, 0);
        assertThat(asked.path("resultType").asText()).as("%s", asked).isEqualTo("input_required");
        assertThat(asked.get("inputRequests").fieldNames()).toIterable().as("the pod's keys").containsExactly("q");
        JsonNode request = asked.at("/inputRequests/q");
        assertThat(request.path("method").asText()).isEqualTo("elicitation/create");
        assertThat(request.at("/params/message").asText()).isEqualTo("Proceed?");
        assertThat(request.at("/params/requestedSchema/properties/answer/type").asText()).isEqualTo("string");
        assertThat(request.at("/params/_meta").isMissingNode()).as("as the pod sent it: %s", request).isTrue();
        String state = asked.path("requestState").asText();
        assertThat(state).isNotEqualTo("asked");
        JsonNode claims = NodeClient.JSON.readTree(java.util.Base64.getUrlDecoder().decode(state.substring(0, state.indexOf('.'))));
        assertThat(claims.path("inner").asText()).as("the gateway's state wraps the pod's: %s", claims).isEqualTo("asked");

        JsonNode refused = session.get("steps").get(1);
        assertThat(refused.at("/error/code").asInt()).as("%s", refused).isEqualTo(-32602);
        assertThat(ok(session, 2).at("/content/0/text").asText()).isEqualTo("answered: accept {\"answer\":\"yes 🎉\"}");
        JsonNode replayed = session.get("steps").get(3);
        assertThat(replayed.at("/error/code").asInt()).as("%s", replayed).isEqualTo(-32602);
        assertThat(ok(session, 4).at("/content/0/text").asText()).as("the client SDK's own rounds")
                .isEqualTo("answered: accept {\"answer\":\"auto\"}");
        assertThat(NodeClient.recorded(dir).stream().filter(l -> l.equals("method tools/call")).count())
                .as("the altered and the replayed state never reach the pod").isEqualTo(4);
        assertServedAsModern();
    }

    @Test
    void aModernPodsListChangeReachesALegacyClientAndItsCancelReachesThePod() throws Exception {
        JsonNode session = NodeClient.session(List.of("--manifests", manifests("modern").toString()), List.of(
                step("listTools"), call("modern__grow", "{}"), step("waitListChanged").put("count", 1),
                step("waitTool").put("name", "modern__grown"), call("modern__grown", "{}"),
                call("modern__slow", "{\"steps\":100,\"delayMs\":100}").put("cancelAfterProgress", 2),
                call("modern__echo", "{\"text\":\"after\"}")));
        NodeClient.assertAllGone(session, pids());
        assertThat(ok(session, 0).get("tools").findValuesAsText("name")).doesNotContain("modern__grown");
        assertThat(ok(session, 4).at("/content/0/text").asText()).isEqualTo("grown");
        assertThat(session.get("steps").get(5).has("error")).as("%s", session.get("steps").get(5)).isTrue();
        assertThat(ok(session, 6).at("/content/0/text").asText()).isEqualTo("after");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(NodeClient.recorded(dir)).contains("cancelled slow"));
        assertServedAsModern();
    }

    @Test
    void aPodPinnedModernThatSpeaksLegacyFailsItsStartup() throws Exception {
        Path manifests = NodeClient.manifests(dir, pids(), "fixture");
        Path manifest = manifests.resolve("fixture.yaml");
        Files.writeString(manifest, Files.readString(manifest).replace("spec:\n", "spec:\n  protocolEra: modern\n"));
        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString()),
                List.of(call("fixture__echo", "{\"text\":\"x\"}")));
        NodeClient.assertAllGone(session, pids());
        JsonNode failed = session.get("steps").get(0);
        assertThat(failed.at("/error/code").asInt()).as("%s", failed).isEqualTo(-32003);
        assertThat(failed.at("/error/message").asText()).as("%s", failed).contains("2026-07-28");
    }

    @Test
    void aLegacyClientWithoutTheCapabilityGetsMissingCapability() throws Exception {
        try (StdioGateway gateway = StdioGateway.start("--manifests", manifests("modern").toString())) {
            gateway.initialize("2025-11-25"); // declares no capability
            JsonNode refused = gateway.exchange("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"modern__ask\",\"arguments\":{}}}");
            assertThat(refused.at("/error/code").asInt()).as("%s", refused).isEqualTo(-32021);
            assertThat(refused.at("/error/data/requiredCapabilities/elicitation").isObject()).as("%s", refused).isTrue();
            JsonNode after = gateway.exchange("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"modern__echo\",\"arguments\":{\"text\":\"still\"}}}");
            assertThat(after.at("/result/content/0/text").asText()).as("%s", after).isEqualTo("still");
            gateway.closeStdin();
            assertThat(gateway.awaitExit()).isZero();
        }
        NodeClient.assertAllGone(NodeClient.JSON.createObjectNode(), pids());
    }
}
