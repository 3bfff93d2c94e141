package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code protocol} key of a manifest: each rule shown by a broken manifest and its {@code file:line: message}. */
class BareManifestTest {

    @TempDir
    Path dir;

    private static String manifest(String specLines) {
        return """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: legacy }
                spec:
                """ + specLines;
    }

    private static final String TOOLS = """
              tools:
                - name: add
                  inputSchema: { type: object }
            """;

    private List<String> problems(String yaml) throws IOException {
        Files.writeString(dir.resolve("legacy.yaml"), yaml);
        return MetaGateway.builder().manifests(dir).validate().problems().stream().map(ManifestProblem::toString).toList();
    }

    private void assertSingle(String yaml, int line, String messagePart) throws IOException {
        List<String> problems = problems(yaml);
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)).startsWith(dir.resolve("legacy.yaml") + ":" + line + ": ").contains(messagePart);
    }

    @Test
    void jsonrpcAndMcpAreAccepted() throws IOException {
        assertThat(problems(manifest("  command: [\"python3\", \"legacy.py\"]\n  protocol: jsonrpc\n" + TOOLS))).isEmpty();
        assertThat(problems(manifest("  command: [\"python3\", \"legacy.py\"]\n  protocol: mcp\n"))).isEmpty();
        assertThat(problems(manifest("  command: [\"python3\", \"legacy.py\"]\n  protocol: jsonrpc\n"
                + "  healthCheck: { enabled: false }\n" + TOOLS))).isEmpty();
    }

    @Test
    void anUnknownProtocolIsNamed() throws IOException {
        assertSingle(manifest("  command: [\"python3\", \"legacy.py\"]\n  protocol: grpc\n" + TOOLS), 6,
                "spec.protocol must be mcp or jsonrpc, not \"grpc\"");
    }

    @Test
    void aProtocolThatIsNotATextIsAWrongType() throws IOException {
        List<String> problems = problems(manifest("  command: [\"python3\", \"legacy.py\"]\n  protocol: [jsonrpc]\n" + TOOLS));
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)).startsWith(dir.resolve("legacy.yaml") + ":6: ").contains("protocol");
    }

    @Test
    void aBarePodMustDeclareItsTools() throws IOException {
        assertSingle(manifest("  command: [\"python3\", \"legacy.py\"]\n  protocol: jsonrpc\n"), 6,
                "a pod with protocol: jsonrpc declares its tools in spec.tools");
    }

    @Test
    void aRemotePodSpeaksMcp() throws IOException {
        assertSingle(manifest("  url: https://tools.example/mcp\n  protocol: jsonrpc\n" + TOOLS), 6,
                "a remote pod speaks MCP");
    }

    @Test
    void aBarePodCannotBePinged() throws IOException {
        assertSingle(manifest("  command: [\"python3\", \"legacy.py\"]\n  protocol: jsonrpc\n"
                + "  healthCheck: { interval: 5s }\n" + TOOLS), 7, "healthCheck pings are MCP");
    }
}
