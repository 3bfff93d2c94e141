package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Closing the HTTP serving waits for the calls in flight: a call the pod is working on when the close begins gets its
 * result, and the close ends once it has gone. Embedded gateway, the MCP fixture pod, a 2026-07-28 request.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpCloseTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final EmbeddedGateway gateway = new EmbeddedGateway();

    @Test
    void aCallInFlightWhenTheCloseBeginsGetsItsResultBeforeTheCloseEnds() throws Exception {
        gateway.fixturePod("live", """
                tools:
                  - name: slow
                    inputSchema: { type: object }
                """);
        Serving serving = gateway.http(HttpOptions.defaults());
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"live__slow\","
                + "\"arguments\":{\"seconds\":1.5,\"steps\":3},\"_meta\":{\"progressToken\":\"p\","
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serving.port() + "/mcp"))
                .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "live__slow").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<Stream<String>> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request, HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        Iterator<String> lines = response.body().iterator();
        JsonNode first = nextData(lines);
        assertThat(first.path("method").asText()).as("the call is at the pod: %s", first).isEqualTo("notifications/progress");

        CompletableFuture<Void> closing = CompletableFuture.runAsync(serving::close);
        JsonNode last = first;
        while (last.has("method")) {
            last = nextData(lines);
        }
        assertThat(last.at("/result/content/0/text").asText()).as("%s", last).isEqualTo("done after 3 steps");
        assertThat(closing).succeedsWithin(Duration.ofSeconds(30));
        assertThat(serving.awaitEnd(Duration.ofSeconds(20))).isTrue();
    }

    /** The next {@code data:} line of the event stream, as JSON. */
    private static JsonNode nextData(Iterator<String> lines) throws Exception {
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("data:")) {
                return JSON.readTree(line.substring("data:".length()).strip());
            }
        }
        throw new AssertionError("the event stream ended");
    }
}
