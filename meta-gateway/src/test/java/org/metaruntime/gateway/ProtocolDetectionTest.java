package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Pods whose manifests do not say what they speak: served as bare JSON-RPC when they declare their tools and do not
 * answer {@code initialize} as an MCP server (or not before their startup timeout ends); otherwise the failure names
 * both ways out. Embedded gateway
 * ({@link PipedGateway}) and the Python pod of {@code src/test/resources/seed} (it answers every line alike).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProtocolDetectionTest {

    static final Path SEED_POD = SeedPodsIT.SEED_MANIFESTS.resolve("pods/my-tools");

    @TempDir
    Path dir;

    private PipedGateway client;

    @BeforeEach
    void python() {
        Repo.tool("python3");
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
    }

    private void serve(String spec) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(folder.resolve("pod.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: pod }
                spec:
                  workdir: %s
                """.formatted(SEED_POD) + spec);
        client = PipedGateway.serve(MetaGateway.builder().manifests(folder).build());
        client.initialize();
    }

    /** Answers tools/call with {"done": true} and nothing else (no error for another method). */
    static final String ONLY_CALLS = "[\"python3\", \"-c\", \"import sys, json\\nfor line in sys.stdin:\\n"
            + "  m = json.loads(line)\\n  if m.get('method') == 'tools/call': print(json.dumps("
            + "{'jsonrpc': '2.0', 'id': m['id'], 'result': {'done': True}}), flush=True)\"]";

    private static final String TOOLS = """
              tools:
                - name: work
                  inputSchema: { type: object }
            """;

    @Test
    void withProtocolJsonrpcThePodIsServedWithoutAsking() throws Exception {
        serve("  command: [\"python3\", \"main.py\"]\n  protocol: jsonrpc\n" + TOOLS);
        JsonNode result = client.call("pod__work", "{}");
        assertThat(result.at("/result/structuredContent/status").asText()).as(result.toString()).isEqualTo("ok");
        assertThat(client.call("meta__status", "{}").at("/result/structuredContent/pods/pod/restarts").asInt()).isZero();
    }

    @Test
    void withProtocolMcpAPodThatIsNotAnMcpServerFailsNamingBothWaysOut() throws Exception {
        serve("  command: [\"python3\", \"main.py\"]\n  protocol: mcp\n" + TOOLS);
        JsonNode failed = client.call("pod__work", "{}");
        assertThat(failed.at("/error/code").asInt()).as(failed.toString()).isEqualTo(-32003);
        assertThat(failed.at("/error/message").asText()).as(failed.toString())
                .contains("answered initialize with {\"status\":\"ok\"}")
                .contains("make it one, or declare its tools in spec.tools without protocol: mcp to serve it as a bare JSON-RPC pod");
    }

    @Test
    void aPodThatDeclaresNoToolsAndIsNotAnMcpServerFailsNamingBothWaysOut() throws Exception {
        serve("  command: [\"python3\", \"main.py\"]\n");
        client.request("tools/list", "{}"); // answered once its start ended
        JsonNode status = client.call("meta__status", "{}").at("/result/structuredContent/pods/pod");
        assertThat(status.get("state").asText()).as(status.toString()).isEqualTo("Failed");
        assertThat(status.get("lastError").asText()).as(status.toString())
                .contains("make it one, or declare its tools in spec.tools to serve it as a bare JSON-RPC pod");
    }

    @Test
    void aPodThatAnswersOnlyToolsCallIsServedBareBeforeItsStartupTimeoutEnds() throws Exception {
        serve("  command: " + ONLY_CALLS + "\n  startupTimeout: 2s\n" + TOOLS);
        JsonNode result = client.call("pod__work", "{}");
        assertThat(result.at("/result/structuredContent/done").asBoolean()).as(result.toString()).isTrue();
        JsonNode status = client.call("meta__status", "{}").at("/result/structuredContent/pods/pod");
        assertThat(status.get("state").asText()).as(status.toString()).isEqualTo("Healthy");
    }

    @Test
    void withProtocolMcpAPodThatDoesNotAnswerInitializeFailsNamingBothWaysOut() throws Exception {
        serve("  command: " + PodStartFailuresTest.SILENT + "\n  startupTimeout: 1s\n  protocol: mcp\n" + TOOLS);
        JsonNode failed = client.call("pod__work", "{}");
        assertThat(failed.at("/error/code").asInt()).as(failed.toString()).isEqualTo(-32003);
        assertThat(failed.at("/error/message").asText()).as(failed.toString())
                .contains("did not answer initialize within its startupTimeout")
                .contains("an MCP server answers it")
                .contains("protocol: jsonrpc and its tools declared in spec.tools");
    }
}
