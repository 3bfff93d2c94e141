package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.mcp.McpProtocolEra;

/** {@code spec.protocolEra}: which era of MCP a pod speaks, its default, and its problems at {@code file:line}. */
class ProtocolEraManifestTest {

    @TempDir
    Path dir;

    private static final String POD = """
            apiVersion: mcp-meta/v1
            kind: ToolPod
            metadata:
              name: tools
            spec:
              command: ["node", "pod.mjs"]
            """;

    private static final String BARE = """
            apiVersion: mcp-meta/v1
            kind: ToolPod
            metadata:
              name: bare
            spec:
              command: ["python3", "bare.py"]
              protocol: jsonrpc
              tools:
                - name: add
                  inputSchema: { type: object }
            """;

    private List<String> problems() {
        return MetaGateway.builder().manifests(dir).validate().problems().stream().map(ManifestProblem::toString).toList();
    }

    private void write(String yaml) throws IOException {
        Files.writeString(dir.resolve("a.yaml"), yaml);
    }

    @Test
    void eachEraIsValidAndAutoIsTheDefault() throws IOException {
        for (String era : List.of("auto", "legacy", "modern")) {
            write(POD + "  protocolEra: " + era + "\n");
            assertThat(problems()).as(era).isEmpty();
            assertThat(Catalog.load(List.of(dir), null, "__").pods().get(0).protocolEra())
                    .isEqualTo(McpProtocolEra.valueOf(era.toUpperCase(java.util.Locale.ROOT)));
        }
        write(POD);
        assertThat(Catalog.load(List.of(dir), null, "__").pods().get(0).protocolEra()).isEqualTo(McpProtocolEra.AUTO);
    }

    @Test
    void anotherValueIsAProblemNamingTheKey() throws IOException {
        write(POD + "  protocolEra: stateless\n");
        assertThat(problems()).containsExactly(dir.resolve("a.yaml") + ":7: spec.protocolEra must be auto, legacy or modern,"
                + " not \"stateless\"");
    }

    @Test
    void aBarePodHasNoEra() throws IOException {
        write(BARE.replace("  protocol: jsonrpc\n", "  protocol: jsonrpc\n  protocolEra: modern\n"));
        List<String> problems = problems();
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)).startsWith(dir.resolve("a.yaml") + ":8: ").contains("protocolEra")
                .contains("protocol: jsonrpc");
    }
}
