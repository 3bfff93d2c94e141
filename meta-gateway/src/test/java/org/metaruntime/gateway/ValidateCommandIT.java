package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/** {@code bin/meta-gateway --validate} and the command line's exit codes, run as a user runs them. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ValidateCommandIT {

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void theExampleManifestsAreValid() throws Exception {
        Repo.Run run = Repo.gateway("--manifests", "examples/manifests", "--validate");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.lines()).last().isEqualTo("ok: 5 pods, 9 tools");
        String greet = "greeter__greet sha256:" + sha256("{\"properties\":{\"language\":"
                + "{\"enum\":[\"en\",\"ja\",\"fr\"],\"type\":\"string\"},\"name\":{\"type\":\"string\"}},\"required\":[\"name\"],"
                + "\"type\":\"object\"}") + " sha256:";
        assertThat(run.lines()).anyMatch(l -> l.startsWith(greet));
        // <outward> <schema hash> <definition hash>: the definition hash covers name (the pod's own), description,
        // inputSchema, outputSchema and annotations as declared, in RFC 8785 form.
        assertThat(run.lines()).contains("caller__ping sha256:" + sha256("{\"type\":\"object\"}") + " sha256:"
                + sha256("{\"description\":\"Calls pong, which calls ping again: the gateway refuses the cycle\","
                + "\"inputSchema\":{\"type\":\"object\"},\"name\":\"ping\"}"));
        assertThat(run.lines()).allMatch(l -> l.startsWith("ok: ") || l.matches("\\S+ sha256:[0-9a-f]{64} sha256:[0-9a-f]{64}"));
        assertThat(run.lines()).hasSize(10);
    }

    @Test
    void invalidManifestsPrintFileLineMessageAndExit1() throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: bad }
                spec:
                  command: [python3, x.py]
                  callTimeout: forever
                  startupTimeout: 1s
                  startupTimeout: 2s
                """);
        Files.writeString(dir.resolve("worse.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: worse }
                spec:
                  command: [python3, x.py]
                  callTimeout: forever
                """);
        Files.writeString(dir.resolve("typo.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: typo }
                spec:
                  command: [pyhton3, x.py]
                """);
        Repo.Run run = Repo.gateway("--manifests", dir.toString(), "--validate");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).containsExactly(
                dir.resolve("bad.yaml") + ":8: duplicate key 'startupTimeout'",
                dir.resolve("typo.yaml") + ":5: spec.command: \"pyhton3\" is not found on PATH",
                dir.resolve("worse.yaml") + ":6: spec.callTimeout: \"forever\" is not a duration (a positive number with ms, s, m or h: 500ms, 30s, 2m)");
    }

    @Test
    void servingInvalidManifestsExits1WithTheProblemsOnStderr() throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), "apiVersion: mcp-meta/v1\nkind: Pod\n");
        Repo.Run run = Repo.gateway("--manifests", dir.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).contains(dir.resolve("bad.yaml") + ":2: kind must be ToolPod, not \"Pod\"");
    }

    @Test
    void aClaudeDesktopConfigIsValidated() throws Exception {
        Path config = dir.resolve("claude_desktop_config.json");
        Files.writeString(config, "{\"mcpServers\": {\"memory\": {\"command\": \"npx\", \"args\": [\"-y\", \"x\"]}}}");
        Repo.Run run = Repo.gateway("--manifests", "examples/manifests", "--config", config.toString(), "--validate");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.lines()).last().isEqualTo("ok: 6 pods, 9 tools");
    }

    @Test
    void aBadCommandLineExits2WithAUsageLine() throws Exception {
        for (String[] args : new String[][] {{}, {"--manifests"}, {"--manifests", "x", "--frobnicate"},
                {"--manifests", "x", "--transport", "carrier-pigeon"}, {"--manifests", "x", "--separator", "."},
                {"--manifests", "x", "--port", "99999"}, {"--manifests", "x", "--max-call-depth", "0"}, {"stray"},
                {"--manifests", "x", "--approve", "pod/tool"}, {"--manifests", "x", "--state", "s", "--approve", "podtool"},
                {"--manifests", "x", "--otlp-endpoint", "ftp://collector"}}) {
            Repo.Run run = Repo.gateway(args);
            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.stdout()).isEmpty();
            assertThat(run.stderr()).contains("meta-gateway: ").contains("usage: meta-gateway --manifests DIR");
        }
    }

    @Test
    void theSeparatorOptionShapesTheNames() throws Exception {
        Repo.Run run = Repo.gateway("--manifests", "examples/manifests", "--validate", "--separator", "-");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.lines()).anyMatch(l -> l.startsWith("greeter-greet sha256:"));
    }

    private static String sha256(String s) throws Exception {
        StringBuilder hex = new StringBuilder();
        for (byte b : java.security.MessageDigest.getInstance("SHA-256").digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
            hex.append(String.format("%02x", b));
        }
        return hex.toString();
    }
}
