package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Claude Desktop {@code mcpServers} file as a source of pods. */
class ClaudeConfigTest {

    @TempDir
    Path dir;

    private List<String> problems(String json) throws IOException {
        Path file = dir.resolve("claude_desktop_config.json");
        Files.writeString(file, json);
        return MetaGateway.builder().claudeConfig(file).validate().lines();
    }

    @Test
    void eachServerIsAPod() throws IOException {
        List<String> lines = problems("""
                {"mcpServers": {
                  "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {"A": "1"}},
                  "remote": {"url": "https://tools.example/mcp"}
                }}
                """);
        assertThat(lines).containsExactly("ok: 2 pods, 0 tools");
    }

    @Test
    void problemsCarryTheirLine() throws IOException {
        String file = dir.resolve("claude_desktop_config.json").toString();
        List<String> lines = problems("""
                {"mcpServers": {
                  "bad.name": {"command": "x"},
                  "both": {"command": "x",
                           "url": "https://a.example/mcp"},
                  "none": {"args": ["a"]},
                  "typo": {"comand": "x", "command": "y"},
                  "notext": {"command": "x", "env": {"N": 1}}
                }}
                """);
        assertThat(lines).containsExactly(
                file + ":2: server name \"bad.name\" is not accepted by clients as a pod name: letters, digits, '_' and '-' only, 1 to 64 characters",
                file + ":3: mcpServers.both has both command and url: give one",
                file + ":5: mcpServers.none needs command or url",
                file + ":6: unknown key \"comand\" in mcpServers.typo (known: command, args, env, url, type, headers)",
                file + ":7: mcpServers.notext.env.N must be a string");
    }

    @Test
    void aServerWhoseProgramCannotBeFoundIsAProblem() throws IOException {
        String file = dir.resolve("claude_desktop_config.json").toString();
        assertThat(problems("""
                {"mcpServers": {
                  "gone": {"command": "no-such-program-for-meta-gateway", "args": ["serve"]}
                }}
                """)).containsExactly(file + ":2: mcpServers.gone.command: \"no-such-program-for-meta-gateway\" is not found on PATH");
    }

    @Test
    void notAnMcpServersFile() throws IOException {
        String file = dir.resolve("claude_desktop_config.json").toString();
        assertThat(problems("{\"servers\": {}}")).containsExactly(file + ":1: a Claude Desktop config is an object with an \"mcpServers\" object");
        assertThat(problems("{\"mcpServers\": {\"a\": {\"command\": \"x\"},\n \"a\": {\"command\": \"y\"}}}"))
                .containsExactly(file + ":2: duplicate key 'a'");
    }

    @Test
    void aConfigPodCollidingWithAManifestPod() throws IOException {
        Path manifests = Files.createDirectories(dir.resolve("m"));
        Files.writeString(manifests.resolve("memory.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: memory }
                spec: { command: [node, x.js] }
                """);
        Path config = dir.resolve("c.json");
        Files.writeString(config, "{\"mcpServers\": {\"memory\": {\"command\": \"npx\"}}}");
        assertThat(MetaGateway.builder().manifests(manifests).claudeConfig(config).validate().lines())
                .containsExactly(config + ":1: duplicate pod name \"memory\": already declared at " + manifests.resolve("memory.yaml") + ":3");
    }
}
