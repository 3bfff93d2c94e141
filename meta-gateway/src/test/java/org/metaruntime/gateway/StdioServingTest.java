package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
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
 * The embedded gateway over piped streams: JSON-RPC framing and the answers that need no pod (initialize,
 * listing, status, errors). Declared pods are not spawned by any of this.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StdioServingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private MetaGateway gateway;
    private PipedGateway client;

    @BeforeEach
    void start() throws IOException {
        Files.writeString(dir.resolve("tools.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: tools }
                spec:
                  command: ["python3", "-c", "raise SystemExit('never started by these tests')"]
                  tools:
                    - name: echo
                      description: "Échos 日本語"
                      inputSchema: { type: object, required: [text], properties: { text: { type: string } } }
                      annotations: { readOnlyHint: true }
                """);
        gateway = MetaGateway.builder().manifests(dir).build();
        client = PipedGateway.serve(gateway);
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void stop() throws Exception {
        client.close();
    }

    private JsonNode exchange(String line) throws IOException {
        return client.exchange(line);
    }

    @Test
    void initializeNegotiatesTheVersionAndDeclaresCapabilities() throws IOException {
        JsonNode answer = exchange("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        assertThat(answer.at("/result/protocolVersion").asText()).isEqualTo("2025-06-18");
        assertThat(answer.at("/result/capabilities/tools/listChanged").asBoolean()).isTrue();
        JsonNode unknownVersion = exchange("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"1999-01-01\"}}");
        assertThat(unknownVersion.at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
    }

    @Test
    void toolsListServesDeclarationsUnchangedAndUnescaped() throws IOException {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\"}");
        String line = client.readLine();
        assertThat(line).contains("Échos 日本語").doesNotContain("\\u");
        JsonNode answer = JSON.readTree(line);
        assertThat(answer.get("id").asText()).isEqualTo("a");
        assertThat(answer.at("/result/tools/1/name").asText()).isEqualTo("tools__echo");
        assertThat(answer.at("/result/tools/1/annotations/readOnlyHint").asBoolean()).isTrue();
        assertThat(answer.at("/result/tools/1/inputSchema/required/0").asText()).isEqualTo("text");
        assertThat(answer.at("/result/tools/0/name").asText()).isEqualTo("meta__status");
    }

    @Test
    void badInputGetsJsonRpcErrorsAndTheSessionGoesOn() throws IOException {
        assertThat(exchange("this is not json").at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(exchange("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]").at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(exchange("{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}").at("/error/code").asInt()).isEqualTo(-32600);
        JsonNode unknown = exchange("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/frobnicate\"}");
        assertThat(unknown.at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(unknown.at("/error/message").asText()).contains("tools/frobnicate");
        // a notification gets no answer: the next answer is the ping's
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertThat(exchange("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}").get("id").asInt()).isEqualTo(4);
    }

    @Test
    void argumentsAreCheckedBeforeAnythingIsSpawned() throws IOException {
        JsonNode invalid = exchange("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"tools__echo\",\"arguments\":{}}}");
        assertThat(invalid.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(invalid.at("/error/message").asText()).startsWith("pod tools tool echo: invalid arguments");
        assertThat(invalid.at("/error/data/pod").asText()).isEqualTo("tools");
        assertThat(invalid.at("/error/data/tool").asText()).isEqualTo("echo");
        JsonNode unknown = exchange("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"tools__nope\"}}");
        assertThat(unknown.at("/error/code").asInt()).isEqualTo(-32602);
        JsonNode level = exchange("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"loud\"}}");
        assertThat(level.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(gateway.status().at("/pods/tools/state").asText()).isEqualTo("NotStarted");
    }

    @Test
    void statusAsAToolAndAsAResource() throws IOException {
        JsonNode tool = exchange("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"meta__status\"}}");
        assertThat(tool.at("/result/structuredContent/pods/tools/tools/0/name").asText()).isEqualTo("echo");
        assertThat(tool.at("/result/structuredContent/pods/tools/tools/0/schemaHash").asText()).startsWith("sha256:");
        assertThat(tool.at("/result/isError").asBoolean()).isFalse();
        JsonNode resource = exchange("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/read\",\"params\":{\"uri\":\"meta://status\"}}");
        assertThat(JSON.readTree(resource.at("/result/contents/0/text").asText())).isEqualTo(tool.at("/result/structuredContent"));
        JsonNode listed = exchange("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"resources/list\"}");
        assertThat(listed.at("/result/resources/0/uri").asText()).isEqualTo("meta://status");
    }
}
