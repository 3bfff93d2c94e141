package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pin} and {@code onDrift} in manifests: what is accepted and the {@code file:line: message} of what is not. */
class PinManifestTest {

    @TempDir
    Path dir;

    private static final String PIN = "sha256:" + "ab".repeat(32);

    private List<String> problems(String spec) throws IOException {
        Files.writeString(dir.resolve("p.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: p }
                spec:
                  command: [python3, main.py]
                """ + spec);
        return MetaGateway.builder().manifests(dir).validate().problems().stream().map(ManifestProblem::toString).toList();
    }

    @Test
    void aWellFormedPinAndOnDriftAreAccepted() throws IOException {
        assertThat(problems("""
                  onDrift: warn
                  tools:
                    - name: echo
                      inputSchema: { type: object }
                      pin: "%s"
                      onDrift: block
                """.formatted(PIN))).isEmpty();
    }

    @Test
    void aPinThatIsNotADefinitionHashIsAProblemAtItsLine() throws IOException {
        for (String bad : List.of("sha256:" + "AB".repeat(32), "sha256:abc", "md5:" + "ab".repeat(32), "ab".repeat(32))) {
            assertThat(problems("""
                      tools:
                        - name: echo
                          inputSchema: { type: object }
                          pin: "%s"
                    """.formatted(bad))).as(bad)
                    .containsExactly(dir.resolve("p.yaml") + ":9: pin must be sha256: and 64 lowercase hex digits (a definition"
                            + " hash, as --validate prints it), not \"" + bad + "\"");
        }
    }

    @Test
    void onDriftIsBlockOrWarn() throws IOException {
        assertThat(problems("""
                  onDrift: ignore
                  tools:
                    - name: echo
                      inputSchema: { type: object }
                      onDrift: later
                """)).containsExactly(dir.resolve("p.yaml") + ":6: spec.onDrift must be block or warn, not \"ignore\"",
                dir.resolve("p.yaml") + ":10: onDrift must be block or warn, not \"later\"");
    }

    @Test
    void aBareJsonRpcPodHasNoPins() throws IOException {
        assertThat(problems("""
                  protocol: jsonrpc
                  tools:
                    - name: echo
                      inputSchema: { type: object }
                      pin: "%s"
                """.formatted(PIN))).containsExactly(dir.resolve("p.yaml")
                + ":10: a pod with protocol: jsonrpc lists no tools, so its tools cannot be pinned: remove pin");
    }

    @Test
    void pinAndOnDriftAreNotPartOfTheToolServed() throws IOException {
        problems("""
                  tools:
                    - name: echo
                      description: Echoes
                      inputSchema: { type: object }
                      pin: "%s"
                """.formatted(PIN));
        ValidationReport report = MetaGateway.builder().manifests(dir).validate();
        // The declared definition's hash: {"description","inputSchema","name"} only.
        assertThat(report.definitionHashes().get("p__echo")).isEqualTo(org.metaruntime.gateway.internal.contract.CanonicalJson
                .schemaHash(org.metaruntime.gateway.internal.rpc.JsonRpc.MAPPER.readTree(
                        "{\"name\":\"echo\",\"description\":\"Echoes\",\"inputSchema\":{\"type\":\"object\"}}")));
    }
}
