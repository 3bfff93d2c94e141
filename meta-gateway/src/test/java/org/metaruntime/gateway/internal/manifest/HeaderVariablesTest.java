package org.metaruntime.gateway.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod keeps the names of the gateway's environment variables its headers read (so no local pod inherits them),
 * from a manifest and from a Claude Desktop config entry; a local pod's {@code env} reads none of them.
 */
class HeaderVariablesTest {

    @TempDir
    Path dir;

    @Test
    void theNamesThatHeadersReadAreKept() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(folder.resolve("remote.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: remote }
                spec:
                  url: https://tools.example/mcp
                  headers: { Authorization: "Bearer ${PATH}", X-Home: "${HOME}/${PATH}", X-Plain: "costs $5" }
                """);
        Files.writeString(folder.resolve("local.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: local }
                spec:
                  command: ["python3", "main.py"]
                  env: { SEARCH_PATH: "${PATH}" }
                """);
        Path claude = Files.writeString(dir.resolve("claude_desktop_config.json"), """
                {"mcpServers": {"desk": {"url": "https://desk.example/mcp", "headers": {"Authorization": "Bearer ${HOME}"}}}}
                """);

        Catalog catalog = Catalog.load(List.of(folder), claude, "__");

        assertThat(catalog.pod("remote").orElseThrow().headerVariables()).containsExactlyInAnyOrder("PATH", "HOME");
        assertThat(catalog.pod("local").orElseThrow().headerVariables()).isEmpty();
        assertThat(catalog.pod("desk").orElseThrow().headerVariables()).containsExactly("HOME");
    }
}
