package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * The bridge over Streamable HTTP, raw: each modern POST stands alone, so the retry of an {@code input_required} round
 * may come on another connection; -32021 is answered 400; a {@code requestState} is bound to the authenticated caller
 * (a state issued to an HTTP principal is refused on the stdio pipe); closing the connection of a pending retry
 * cancels the call at the pod. A real legacy python pod; no process left after each test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BridgeHttpIT {

    private static final String TOKEN = "bridge-token-for-tests";

    @TempDir
    Path dir;

    private MetaGateway gateway;
    private Serving serving;
    private String url;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFilesIn(() -> dir.resolve("pids"), "");

    @AfterEach
    void stop() throws Exception {
        if (serving != null) {
            serving.close();
            assertThat(serving.awaitEnd(Duration.ofSeconds(20))).isTrue();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private void start(HttpOptions options) throws Exception {
        start(options, "10s");
    }

    private void start(HttpOptions options, String callTimeout) throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "asking");
        Path asking = manifests.resolve("asking.yaml");
        java.nio.file.Files.writeString(asking, java.nio.file.Files.readString(asking).replace("callTimeout: 10s", "callTimeout: " + callTimeout));
        gateway = MetaGateway.builder().manifests(manifests).build();
        serving = gateway.serveHttp(new InetSocketAddress("127.0.0.1", 0), options);
        url = "http://127.0.0.1:" + serving.port() + "/mcp";
    }

    /** A modern {@code tools/call} POSTed on a connection of a new client. */
    private HttpResponse<String> post(String body, String token) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", "asking__ask")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        String body = response.body();
        if (body.startsWith("event:") || body.startsWith("data:")) {
            String last = null;
            for (String line : body.split("\n")) {
                if (line.startsWith("data:")) {
                    last = line.substring(5).trim();
                }
            }
            body = last;
        }
        return NodeClient.JSON.readTree(body);
    }

    @Test
    void theRetryComesOnAnotherConnectionAndGetsThePodsResult() throws Exception {
        start(HttpOptions.defaults());
        String arguments = BridgeStdioIT.rounds("[" + BridgeStdioIT.ELICIT + "]");
        HttpResponse<String> first = post(BridgeStdioIT.call(1, "asking__ask", arguments, BridgeStdioIT.ALL_CAPABILITIES, ""), null);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        JsonNode asked = json(first);
        BridgeStdioIT.assertInputRequired(asked);
        assertThat(first.headers().firstValue("Mcp-Session-Id")).isEmpty();
        assertThat(awaitingInput()).isEqualTo(1);
        HttpResponse<String> second = post(BridgeStdioIT.call(2, "asking__ask", arguments, BridgeStdioIT.ALL_CAPABILITIES,
                BridgeStdioIT.retryParams(BridgeStdioIT.answersTo(asked.at("/result/inputRequests")),
                        asked.at("/result/requestState").asText())), null);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
        JsonNode done = json(second);
        assertThat(done.at("/result/resultType").asText()).as("%s", done).isEqualTo("complete");
        assertThat(done.at("/result/structuredContent/answers/0/0/result")).isEqualTo(BridgeStdioIT.answerTo("elicitation/create"));
        assertThat(awaitingInput()).as("no parked call left").isZero();
    }

    /** The gateway's {@code meta_gateway_calls_awaiting_input} now. */
    private double awaitingInput() throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url.replace("/mcp", "/metrics")))
                .GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("meta_gateway_calls_awaiting_input ")) {
                return Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
            }
        }
        throw new AssertionError("no meta_gateway_calls_awaiting_input in " + metrics);
    }

    @Test
    void anAbandonedCallLeavesNothingParked() throws Exception {
        start(HttpOptions.defaults(), "1s");
        JsonNode asked = json(post(BridgeStdioIT.call(1, "asking__ask", BridgeStdioIT.rounds("[" + BridgeStdioIT.ELICIT + "]"),
                BridgeStdioIT.ALL_CAPABILITIES, ""), null));
        BridgeStdioIT.assertInputRequired(asked);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(NodeClient.recorded(dir))
                .contains("answered elicitation/create -32001").anyMatch(line -> line.startsWith("cancelled ")));
        assertThat(awaitingInput()).isZero();
    }

    @Test
    void aMissingCapabilityIsAnswered400WithMissingCapability() throws Exception {
        start(HttpOptions.defaults());
        HttpResponse<String> refused = post(BridgeStdioIT.call(1, "asking__ask", BridgeStdioIT.rounds("[" + BridgeStdioIT.SAMPLE + "]"),
                "{\"elicitation\":{}}", ""), null);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(json(refused).at("/error/code").asInt()).isEqualTo(-32021);
        assertThat(json(refused).at("/error/data/requiredCapabilities/sampling").isObject()).isTrue();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(NodeClient.recorded(dir))
                .contains("answered sampling/createMessage -32601").anyMatch(line -> line.startsWith("cancelled ")));
    }

    @Test
    void aStateIssuedToAnHttpPrincipalIsRefusedToAnotherCaller() throws Exception {
        start(HttpOptions.builder().token(TOKEN).build());
        String arguments = BridgeStdioIT.rounds("[" + BridgeStdioIT.ROOTS + "]");
        JsonNode asked = json(post(BridgeStdioIT.call(1, "asking__ask", arguments, BridgeStdioIT.ALL_CAPABILITIES, ""), TOKEN));
        BridgeStdioIT.assertInputRequired(asked);
        String retry = BridgeStdioIT.call(2, "asking__ask", arguments, BridgeStdioIT.ALL_CAPABILITIES,
                BridgeStdioIT.retryParams(BridgeStdioIT.answersTo(asked.at("/result/inputRequests")),
                        asked.at("/result/requestState").asText()));
        try (PipedGateway pipe = PipedGateway.serveOnly(gateway)) {
            JsonNode other = pipe.exchange(retry);
            assertThat(other.at("/error/code").asInt()).as("%s", other).isEqualTo(-32602);
            assertThat(other.at("/error/message").asText()).contains("another caller");
        }
        JsonNode done = json(post(retry, TOKEN));
        assertThat(done.at("/result/resultType").asText()).as("the call still waited: %s", done).isEqualTo("complete");
    }

    @Test
    void closingThePendingRetrysConnectionCancelsTheCallAtThePod() throws Exception {
        start(HttpOptions.defaults());
        String arguments = "{\"sleep\":20,\"rounds\":[[" + BridgeStdioIT.ELICIT + "]]}";
        JsonNode asked = json(post(BridgeStdioIT.call(1, "asking__ask", arguments, BridgeStdioIT.ALL_CAPABILITIES, ""), null));
        BridgeStdioIT.assertInputRequired(asked);
        String retry = BridgeStdioIT.call(2, "asking__ask", arguments, BridgeStdioIT.ALL_CAPABILITIES,
                BridgeStdioIT.retryParams(BridgeStdioIT.answersTo(asked.at("/result/inputRequests")),
                        asked.at("/result/requestState").asText()));
        byte[] body = retry.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", serving.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + serving.port() + "\r\nAccept: application/json\r\n"
                    + "Content-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n"
                    + "Mcp-Name: asking__ask\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(NodeClient.recorded(dir)).contains("answered elicitation/create ok"));
            assertThat(NodeClient.recorded(dir)).noneMatch(line -> line.startsWith("cancelled "));
            InputStream in = socket.getInputStream();
            assertThat(in.available()).as("no answer yet").isZero();
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(NodeClient.recorded(dir)).anyMatch(line -> line.startsWith("cancelled ")));
        assertThat(awaitingInput()).as("no parked call left").isZero();
    }
}
