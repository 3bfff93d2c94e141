package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.metaruntime.testing.LeakCheck;

/**
 * Requests the server sends during a call (the python fixture's {@code ask_client} tool sends one and returns the
 * answer it got): the call's handler, else the connection's, else -32601.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerRequestRoutingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final List<McpConnection> opened = new ArrayList<>();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().zero("shared timer leases", SharedTimer::leases);

    @AfterEach
    void close() {
        for (McpConnection c : opened) {
            c.close(Duration.ofSeconds(10));
        }
    }

    private McpConnection open(McpClientOptions options) {
        McpConnection c = McpProbe.probe(Peers.python("py", dir.resolve("pid")), options, T).connection();
        opened.add(c);
        return c;
    }

    private static ObjectNode ask(String method) {
        return JSON.createObjectNode().put("method", method);
    }

    private static McpClientRequestHandler answering(String who) {
        return (module, params) -> CompletableFuture.completedFuture(JSON.createObjectNode().put("by", who)
                .put("module", module));
    }

    /** What the server got back for its request, as the fixture reports it. */
    private static JsonNode answer(McpConnection c, String method, McpCallOptions options) {
        Object structured = c.callToolResult("ask_client", ask(method), options).structuredContent();
        return JSON.valueToTree(structured).get("response");
    }

    @Test
    void theCallsHandlerAnswersFirstThenTheConnectionsThenMethodNotFound() {
        McpConnection c = open(McpClientOptions.builder()
                .samplingHandler(answering("connection"))
                .rootsHandler(answering("connection-roots"))
                .build());
        McpCallOptions perCall = McpCallOptions.builder(T)
                .samplingHandler(answering("call"))
                .elicitationHandler(answering("call-elicitation"))
                .rootsHandler(answering("call-roots"))
                .build();
        assertThat(answer(c, "sampling/createMessage", perCall).at("/result/by").asText()).isEqualTo("call");
        assertThat(answer(c, "elicitation/create", perCall).at("/result/by").asText()).isEqualTo("call-elicitation");
        assertThat(answer(c, "roots/list", perCall).at("/result/by").asText()).isEqualTo("call-roots");
        assertThat(answer(c, "sampling/createMessage", perCall).at("/result/module").asText()).isEqualTo("py");

        McpCallOptions plain = McpCallOptions.of(T);
        assertThat(answer(c, "sampling/createMessage", plain).at("/result/by").asText()).isEqualTo("connection");
        assertThat(answer(c, "roots/list", plain).at("/result/by").asText()).isEqualTo("connection-roots");
        JsonNode refused = answer(c, "elicitation/create", plain).get("error");
        assertThat(refused.get("code").asInt()).isEqualTo(-32601);
    }

    @Test
    void withSeveralCallsNamingAHandlerTheConnectionsHandlerAnswers() throws Exception {
        McpConnection c = open(McpClientOptions.builder().samplingHandler(answering("connection")).build());
        McpCallOptions perCall = McpCallOptions.builder(T).samplingHandler(answering("call")).build();
        // a hanging call with a handler is on the wire: the asking call is not the only one naming a handler
        McpToolCall hanging = c.startCall("hang", null, McpCallOptions.builder(Duration.ofMinutes(1))
                .samplingHandler(answering("other call")).build());
        assertThat(answer(c, "sampling/createMessage", perCall).at("/result/by").asText()).isEqualTo("connection");
        hanging.cancel();
        assertThat(answer(c, "sampling/createMessage", perCall).at("/result/by").asText()).isEqualTo("call");
    }

    @Test
    void aServersOwnMethodIsAnsweredUnderTheServersIdsWithSeveralInFlight() throws Exception {
        Map<String, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
        McpConnection c = open(McpClientOptions.builder()
                .requestHandler("x/lookup", (module, params) -> {
                    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
                    waiting.put(params.path("key").asText(), answer);
                    return answer;
                })
                .requestHandler("x/refuse", (module, params) -> CompletableFuture.failedFuture(
                        new McpClientRequestException(-32004, "refused: " + module, JSON.createObjectNode().put("why", "test"))))
                .build());
        List<McpToolCall> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // the server asks under the very id of the tools/call it is serving
            ObjectNode arguments = ask("x/lookup").put("same_id", true);
            arguments.putObject("params").put("key", "k" + i);
            calls.add(c.startCall("ask_client", arguments, McpCallOptions.of(T)));
        }
        await().atMost(T).until(() -> waiting.size() == 4);
        for (int i = 3; i >= 0; i--) {
            waiting.get("k" + i).complete(JSON.createObjectNode().put("value", "v" + i));
        }
        for (int i = 0; i < 4; i++) {
            JsonNode response = JSON.valueToTree(calls.get(i).result().get(20, TimeUnit.SECONDS).structuredContent()).get("response");
            assertThat(response.at("/result/value").asText()).as(response.toString()).isEqualTo("v" + i);
        }
        JsonNode refused = answer(c, "x/refuse", McpCallOptions.of(T)).get("error");
        assertThat(refused.get("code").asInt()).isEqualTo(-32004);
        assertThat(refused.get("message").asText()).isEqualTo("refused: py");
        assertThat(refused.at("/data/why").asText()).isEqualTo("test");
        assertThat(answer(c, "x/unknown", McpCallOptions.of(T)).at("/error/code").asInt()).isEqualTo(-32601);
    }

    @Test
    void pingHasNoHandlerOfTheHost() {
        assertThatThrownBy(() -> McpClientOptions.builder().requestHandler("ping", answering("host")))
                .isInstanceOf(IllegalArgumentException.class);
        McpClientOptions options = McpClientOptions.builder().requestHandler("sampling/createMessage", answering("h")).build();
        assertThat(options.samplingHandler()).isPresent();
        assertThat(options.toBuilder().build().requestHandlers()).containsOnlyKeys("sampling/createMessage");
    }
}
