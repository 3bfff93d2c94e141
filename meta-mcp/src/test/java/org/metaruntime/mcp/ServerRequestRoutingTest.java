package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.mcp.internal.SharedTimer;

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

    @AfterEach
    void nothingLeft() {
        for (McpConnection c : opened) {
            c.close(Duration.ofSeconds(10));
            Peers.assertGone(c.pid());
        }
        Peers.assertNoProcessLeft();
        assertThat(SharedTimer.leases()).isZero();
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
}
