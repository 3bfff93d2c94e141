package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * Why a pod failed to start is in the status report ({@code meta__status}, {@code meta://status}): a pod that exits at
 * start, whose command does not exist, that does not answer within its startup timeout, and a failing Claude Desktop
 * config entry (started with the gateway). Embedded gateway ({@link PipedGateway}), real processes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PodStartFailuresTest {

    /** Writes a line to stderr and exits with code 5. */
    static final String EXITS = "[\"python3\", \"-c\", \"import sys; sys.stderr.write('no config here\\\\n'); sys.exit(5)\"]";
    /** Reads its stdin and never answers. */
    static final String SILENT = "[\"python3\", \"-c\", \"import sys\\nfor line in sys.stdin: pass\"]";

    @TempDir
    Path dir;

    private PipedGateway client;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
    }

    static String manifest(String name, String command, String more) {
        return """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: %s }
                spec:
                  command: %s
                %s  tools:
                    - name: work
                      inputSchema: { type: object }
                """.formatted(name, command, more);
    }

    private JsonNode serve(String... manifests) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("manifests"));
        for (int i = 0; i < manifests.length; i++) {
            Files.writeString(folder.resolve("pod" + i + ".yaml"), manifests[i]);
        }
        client = PipedGateway.serve(MetaGateway.builder().manifests(folder).build());
        return client.initialize();
    }

    private JsonNode status(String pod) throws IOException {
        JsonNode status = client.call("meta__status", "{}").at("/result/structuredContent/pods/" + pod);
        assertThat(status.isMissingNode()).isFalse();
        return status;
    }

    @Test
    void aPodThatExitsAtStartShowsItsExitCodeAndStderr() throws Exception {
        Repo.tool("python3");
        // its exits end its startup: the startup timeout only guards against a hang (a short one would let a slow
        // machine take the process, silent until it exits, for a bare JSON-RPC pod that started)
        serve(manifest("exits", EXITS, "  startupTimeout: 60s\n"));
        JsonNode failed = client.call("exits__work", "{}");
        assertThat(failed.at("/error/code").asInt()).as(failed.toString()).isEqualTo(-32003);
        JsonNode status = status("exits");
        assertThat(status.get("state").asText()).as(status.toString()).isEqualTo("Failed");
        assertThat(status.get("lastError").asText()).as(status.toString()).contains("code 5");
        assertThat(status.get("stderrTail").asText()).as(status.toString()).contains("no config here");
    }

    @Test
    void aPodWhoseCommandIsMissingSaysSo() throws Exception {
        serve(manifest("missing", "[\"no-such-command-for-meta-gateway\", \"serve\"]", ""));
        JsonNode failed = client.call("missing__work", "{}");
        assertThat(failed.at("/error/code").asInt()).as(failed.toString()).isEqualTo(-32003);
        JsonNode status = status("missing");
        assertThat(status.get("state").asText()).as(status.toString()).isEqualTo("Failed");
        assertThat(status.get("lastError").asText()).as(status.toString())
                .contains("no-such-command-for-meta-gateway").contains("No such file");
    }

    @Test
    void aPodThatDoesNotAnswerWithinItsStartupTimeoutSaysSo() throws Exception {
        Repo.tool("python3");
        serve(manifest("silent", SILENT, "  startupTimeout: 1s\n  protocol: mcp\n"));
        JsonNode failed = client.call("silent__work", "{}");
        assertThat(failed.at("/error/code").asInt()).as(failed.toString()).isEqualTo(-32003);
        JsonNode status = status("silent");
        assertThat(status.get("state").asText()).as(status.toString()).isEqualTo("Failed");
        assertThat(status.get("lastError").asText()).as(status.toString()).contains("1000 ms");
    }

    @Test
    void aConfigEntryThatFailsAtTheGatewaysStartShowsWhy() throws Exception {
        Repo.tool("python3");
        Path config = Files.writeString(dir.resolve("claude_desktop_config.json"), """
                {"mcpServers": {"entry": {"command": "python3",
                  "args": ["-c", "import sys; sys.stderr.write('entry has no key\\\\n'); sys.exit(3)"]}}}
                """);
        client = PipedGateway.serve(MetaGateway.builder().claudeConfig(config).build());
        client.initialize();
        client.request("tools/list", "{}"); // answered once the config entry's start ended
        JsonNode entry = status("entry");
        assertThat(entry.get("state").asText()).as(entry.toString()).isEqualTo("Failed");
        assertThat(entry.get("lastError").asText()).as(entry.toString()).contains("code 3");
        assertThat(entry.get("stderrTail").asText()).as(entry.toString()).contains("entry has no key");
    }
}
