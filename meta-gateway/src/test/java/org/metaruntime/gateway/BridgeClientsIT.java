package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.gateway.NodeClient.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real client of MCP 2026-07-28 in front of a legacy pod that asks for input: the TypeScript SDK v2 client pinned to
 * that revision, with elicitation, sampling and roots handlers, calls {@code bin/meta-gateway} over stdio and over
 * Streamable HTTP; the pod's requests reach the client's handlers as {@code input_required} rounds, which the client
 * fulfils and retries on its own, and the call ends with the pod's result. The gateway and every pod are gone after.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BridgeClientsIT {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = NodeClient.Transport.class, names = {"STDIO", "STREAMABLE_HTTP"})
    void aPinnedClientsHandlersAnswerALegacyPodsRequestsRoundByRound(NodeClient.Transport transport) throws Exception {
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "asking");
        ObjectNode script = NodeClient.JSON.createObjectNode();
        script.set("capabilities", NodeClient.JSON.readTree(BridgeStdioIT.ALL_CAPABILITIES));
        ObjectNode answers = script.putObject("answers");
        for (String method : List.of("elicitation/create", "sampling/createMessage", "roots/list")) {
            answers.set(method, BridgeStdioIT.answerTo(method));
        }
        String arguments = BridgeStdioIT.rounds("[" + BridgeStdioIT.ELICIT + "]", "[" + BridgeStdioIT.SAMPLE + "]",
                "[" + BridgeStdioIT.ROOTS + "]");
        JsonNode session = NodeClient.modernSession(transport, List.of("--manifests", manifests.toString()),
                List.of(call("asking__ask", arguments), call("asking__ask", "{\"rounds\":[]}")), script);
        NodeClient.assertAllGone(session, pids);
        assertThat(session.get("version").asText()).isEqualTo("2026-07-28");
        JsonNode done = session.get("steps").get(0);
        assertThat(done.has("ok")).as("%s (gateway stderr: %s)", done, session.path("stderr").asText()).isTrue();
        assertThat(done.at("/ok/structuredContent/answers/0/0/result")).isEqualTo(BridgeStdioIT.answerTo("elicitation/create"));
        assertThat(done.at("/ok/structuredContent/answers/1/0/result/content/text").asText()).isEqualTo("sampled");
        assertThat(done.at("/ok/structuredContent/answers/2/0/result")).isEqualTo(BridgeStdioIT.answerTo("roots/list"));
        JsonNode inputs = session.get("inputs");
        assertThat(inputs).hasSize(3);
        assertThat(inputs.get(0).get("method").asText()).isEqualTo("elicitation/create");
        assertThat(inputs.get(0).at("/params/message").asText()).isEqualTo("Your name?");
        assertThat(inputs.get(0).at("/params").has("_meta")).as("the pod's _meta stays at the gateway").isFalse();
        assertThat(inputs.get(1).get("method").asText()).isEqualTo("sampling/createMessage");
        assertThat(inputs.get(1).at("/params/messages/0/content/text").asText()).isEqualTo("hi ✓");
        assertThat(inputs.get(2).get("method").asText()).isEqualTo("roots/list");
        assertThat(session.get("steps").get(1).at("/ok/structuredContent/answers")).as("a call that asks nothing").isEmpty();
    }
}
