package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.gateway.NodeClient.call;
import static org.metaruntime.gateway.NodeClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Clients of MCP 2026-07-28: the TypeScript SDK v2 client pinned to that revision connects to {@code bin/meta-gateway}
 * over stdio and over Streamable HTTP (no {@code initialize}, no session), lists, calls real python pods with
 * progress, log lines asked per request and cancellation. Every test checks that the gateway and every pod are gone
 * after the session. The scenarios share one session per transport ({@link SharedSession}), each reading back its own
 * steps.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModernClientsIT {

    /** One folder per transport: its manifests, pid files and the pod's record. */
    @TempDir
    static Path dir;

    private final Map<NodeClient.Transport, SharedSession> sessions = new EnumMap<>(NodeClient.Transport.class);

    @BeforeAll
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void runTheSharedSessions() throws Exception {
        for (NodeClient.Transport transport : List.of(NodeClient.Transport.STDIO, NodeClient.Transport.STREAMABLE_HTTP)) {
            Path folder = dir.resolve(transport.name());
            SharedSession shared = new SharedSession()
                    .part("pinned", List.of(step("discover"), step("listTools"),
                            call("fixture__echo", "{\"text\":\"héllo 日本\"}"), call("meta__status", "{}"),
                            step("readResource").put("uri", "fixture://greeting"), step("listPrompts"),
                            step("getPrompt").put("name", "fixture__greet")
                                    .set("arguments", NodeClient.JSON.createObjectNode().put("who", "Ada"))))
                    .part("capability", List.of(call("fixture__sample", "{\"prompt\":\"hi\"}"),
                            call("fixture__echo", "{\"text\":\"after\"}")))
                    .part("progressAndLogs", List.of(
                            call("fixture__slow", "{\"seconds\":0.3,\"steps\":3}").put("progress", true),
                            call("fixture__log", "{\"level\":\"warning\",\"text\":\"unasked\"}"),
                            call("fixture__log", "{\"level\":\"info\",\"text\":\"below the level\"}").put("logLevel", "warning"),
                            call("fixture__log", "{\"level\":\"error\",\"text\":\"asked ✓\"}").put("logLevel", "warning")))
                    .part("cancel", List.of(
                            call("fixture__slow", "{\"seconds\":20,\"steps\":40}").put("cancelAfterProgress", 2),
                            step("waitLines").put("path", folder.resolve("record.txt").toString()).put("prefix", "cancelled ")
                                    .put("count", 1),
                            call("fixture__echo", "{\"text\":\"still serving\"}")));
            Path manifests = NodeClient.manifests(folder, folder.resolve("pids"), "fixture");
            JsonNode session = NodeClient.modernSession(transport, List.of("--manifests", manifests.toString()), shared.steps());
            NodeClient.assertAllGone(session, folder.resolve("pids"));
            shared.ran(session);
            sessions.put(transport, shared);
        }
    }

    private static JsonNode ok(JsonNode session, int step) {
        JsonNode s = session.get("steps").get(step);
        assertThat(s.has("ok")).as("step %d: %s (gateway stderr: %s)", step, s, session.path("stderr").asText()).isTrue();
        return s.get("ok");
    }

    @ParameterizedTest
    @EnumSource(value = NodeClient.Transport.class, names = {"STDIO", "STREAMABLE_HTTP"})
    void aPinnedClientConnectsListsAndCallsWithoutASession(NodeClient.Transport transport) throws Exception {
        JsonNode session = sessions.get(transport).of("pinned");
        assertThat(session.get("era").asText()).isEqualTo("modern");
        assertThat(session.get("version").asText()).isEqualTo("2026-07-28");
        assertThat(session.get("sessionId").isNull()).as("no Mcp-Session-Id for modern traffic").isTrue();
        JsonNode discover = session.get("discover");
        assertThat(discover.get("supportedVersions").get(0).asText()).isEqualTo("2026-07-28");
        assertThat(discover.at("/capabilities/tools/listChanged").asBoolean()).isTrue();
        assertThat(ok(session, 0).get("supportedVersions")).isEqualTo(discover.get("supportedVersions"));
        List<String> names = new ArrayList<>();
        ok(session, 1).get("tools").forEach(t -> names.add(t.get("name").asText()));
        assertThat(names).as("sorted by outward name").containsExactly("fixture__crash", "fixture__echo", "fixture__image",
                "fixture__log", "fixture__meta", "fixture__sample", "fixture__sleep", "fixture__slow", "meta__status");
        assertThat(ok(session, 2).at("/content/0/text").asText()).isEqualTo("héllo 日本");
        assertThat(ok(session, 2).at("/structuredContent/echo").asText()).isEqualTo("héllo 日本");
        assertThat(ok(session, 3).at("/structuredContent/pods/fixture/state").asText()).isEqualTo("Healthy");
        assertThat(ok(session, 4).at("/contents/0/text").asText()).isEqualTo("こんにちは 🎉");
        assertThat(ok(session, 5).at("/prompts/0/name").asText()).isEqualTo("fixture__greet");
        assertThat(ok(session, 6).at("/messages/0/content/text").asText()).isEqualTo("Say hello to Ada");
    }

    @ParameterizedTest
    @EnumSource(value = NodeClient.Transport.class, names = {"STDIO", "STREAMABLE_HTTP"})
    void progressAndLogLinesReachOnlyTheRequestThatAskedForThem(NodeClient.Transport transport) throws Exception {
        JsonNode session = sessions.get(transport).of("progressAndLogs");
        JsonNode slow = session.get("steps").get(0);
        assertThat(slow.get("ok").at("/content/0/text").asText()).isEqualTo("done after 3 steps");
        assertThat(slow.get("progress")).hasSize(3);
        assertThat(slow.at("/progress/2/message").asText()).isEqualTo("step 3 ✓");
        JsonNode logs = session.get("logs");
        assertThat(logs).as("only the line at or above the level a request asked for, in the whole session: %s", logs)
                .hasSize(1);
        assertThat(logs.at("/0/data").asText()).isEqualTo("asked ✓");
        assertThat(logs.at("/0/level").asText()).isEqualTo("error");
        assertThat(logs.at("/0/logger").asText()).isEqualTo("fixture");
    }

    @ParameterizedTest
    @EnumSource(value = NodeClient.Transport.class, names = {"STDIO", "STREAMABLE_HTTP"})
    void aCancelledCallIsCancelledAtThePod(NodeClient.Transport transport) throws Exception {
        JsonNode session = sessions.get(transport).of("cancel");
        JsonNode cancelled = session.get("steps").get(0);
        assertThat(cancelled.has("error")).as("%s", cancelled).isTrue();
        ok(session, 1);
        assertThat(ok(session, 2).at("/content/0/text").asText()).isEqualTo("still serving");
        assertThat(NodeClient.recorded(dir.resolve(transport.name()))).anyMatch(line -> line.startsWith("cancelled "));
    }

    @ParameterizedTest
    @EnumSource(value = NodeClient.Transport.class, names = {"STDIO", "STREAMABLE_HTTP"})
    void aPodRequestNeedingAnUndeclaredCapabilityFailsTheCallWithMissingCapability(NodeClient.Transport transport) throws Exception {
        JsonNode session = sessions.get(transport).of("capability");
        JsonNode refused = session.get("steps").get(0);
        assertThat(refused.has("error")).as("%s", refused).isTrue();
        assertThat(refused.at("/error/code").asInt()).isEqualTo(-32021);
        assertThat(refused.at("/error/data/requiredCapabilities/sampling").isObject()).as("%s", refused).isTrue();
        assertThat(ok(session, 1).at("/content/0/text").asText()).isEqualTo("after");
    }
}
