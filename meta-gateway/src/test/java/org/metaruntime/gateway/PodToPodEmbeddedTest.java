package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * Pod-to-pod calls under the embedded gateway ({@link PipedGateway}) with real python pods, and the maximum depth
 * set in {@link GatewayOptions}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PodToPodEmbeddedTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private MetaGateway gateway;
    private PipedGateway client;
    private int ids;

    @BeforeEach
    void start() throws IOException {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "alpha", "beta", "gamma");
        gateway = MetaGateway.builder().manifests(manifests).options(GatewayOptions.builder().maxCallDepth(2).build()).build();
        client = PipedGateway.serve(gateway);
        request("initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void stop() throws Exception {
        client.close();
    }

    /** Sends a request and reads lines until its answer (skipping notifications). */
    private JsonNode request(String method, String params) throws IOException {
        int id = ++ids;
        client.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
        while (true) {
            JsonNode message = JSON.readTree(client.readLine());
            if (message.path("id").asInt(-1) == id && !message.has("method")) {
                return message;
            }
        }
    }

    private JsonNode call(String tool, ObjectNode arguments) throws IOException {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", arguments);
        return request("tools/call", params.toString());
    }

    @Test
    void theDepthSetInTheOptionsBoundsTheChain() throws IOException {
        ObjectNode two = JSON.createObjectNode().put("tool", "beta.echo");
        two.putObject("args").put("text", "two deep");
        JsonNode ok = call("alpha__call", two);
        assertThat(ok.at("/result/structuredContent/responses/0/result/structuredContent/echo").asText()).as(ok.toString())
                .isEqualTo("two deep");

        ObjectNode three = JSON.createObjectNode().put("tool", "beta.call");
        three.putObject("args").put("tool", "gamma.echo").putObject("args").put("text", "three deep");
        JsonNode refused = call("alpha__call", three).at("/result/structuredContent/responses/0/result/structuredContent/responses/0/error");
        assertThat(refused.get("code").asInt()).as(refused.toString()).isEqualTo(-32004);
        assertThat(refused.at("/data/maxDepth").asInt()).isEqualTo(2);
        assertThat(refused.at("/data/chain").toString()).isEqualTo("[\"alpha.call\",\"beta.call\",\"gamma.echo\"]");
        assertThat(gateway.status().at("/pods/gamma/state").asText()).as("the refused target was never started").isEqualTo("NotStarted");
    }

    @Test
    void aBadRequestOfAPodGetsAClearError() throws IOException {
        JsonNode unknown = call("alpha__call", JSON.createObjectNode().put("tool", "beta.nope"))
                .at("/result/structuredContent/responses/0/error");
        assertThat(unknown.get("code").asInt()).isEqualTo(-32602);
        assertThat(unknown.get("message").asText()).isEqualTo("unknown tool: beta.nope");
        ObjectNode badArgs = JSON.createObjectNode().put("tool", "beta.echo");
        badArgs.putObject("args").put("text", 5);
        JsonNode invalid = call("alpha__call", badArgs).at("/result/structuredContent/responses/0/error");
        assertThat(invalid.get("code").asInt()).isEqualTo(-32602);
        assertThat(invalid.get("message").asText()).contains("pod beta tool echo: invalid arguments");
        ObjectNode badRange = JSON.createObjectNode().put("tool", "beta.echo");
        badRange.putObject("args").put("text", "x");
        badRange.putObject("expect").put("version", ">=banana");
        JsonNode range = call("alpha__call", badRange).at("/result/structuredContent/responses/0/error");
        assertThat(range.get("code").asInt()).isEqualTo(-32602);
        assertThat(range.get("message").asText()).contains("expect.version \">=banana\" is not a version range");
        assertThatThrownBy(() -> GatewayOptions.builder().maxCallDepth(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
