package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * {@code bin/meta-gateway} over stdio, raw, with requests of MCP 2026-07-28 and real python pods: nothing but answers
 * is written before an {@code initialize}, a pod that cannot serve is -32003 with its reason (never -32002), and a
 * legacy session opened later on the same pipe gets its notifications as before.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ModernStdioIT {

    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @TempDir
    Path dir;

    private Process gateway;
    private OutputStream in;
    private BufferedReader out;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFilesIn(() -> dir.resolve("pids"), "");

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            in.close();
            if (!gateway.waitFor(30, TimeUnit.SECONDS)) {
                gateway.descendants().forEach(ProcessHandle::destroyForcibly);
                gateway.destroyForcibly();
                throw new AssertionError("the gateway did not end when its input closed");
            }
        }
    }

    private void start(Path manifests) throws IOException {
        gateway = new ProcessBuilder(Repo.tool("sh"), Repo.COMMAND.toString(), "--manifests", manifests.toString())
                .directory(Repo.ROOT.toFile()).redirectError(dir.resolve("stderr.txt").toFile()).start();
        in = gateway.getOutputStream();
        out = new BufferedReader(new InputStreamReader(gateway.getInputStream(), StandardCharsets.UTF_8));
    }

    private JsonNode exchange(String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        String answer = out.readLine();
        assertThat(answer).as("the gateway's output ended; stderr: %s", Files.readString(dir.resolve("stderr.txt"))).isNotNull();
        return NodeClient.JSON.readTree(answer);
    }

    private static String modern(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{"
                + (params.isEmpty() ? "" : params + ",") + META + "}}";
    }

    @Test
    void nothingUnsolicitedBeforeInitializeAndLegacyNotificationsAfter() throws Exception {
        start(NodeClient.manifests(dir, dir.resolve("pids"), "live"));
        JsonNode listed = exchange(modern(1, "tools/list", ""));
        assertThat(listed.get("id").asInt()).as("the first line is the answer, no notification: %s", listed).isEqualTo(1);
        assertThat(listed.at("/result/tools").toString()).contains("live__echo");
        assertThat(listed.at("/result/ttlMs").asLong()).as("a pod lists its tools live").isZero();
        JsonNode initialized = exchange("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        assertThat(initialized.at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
        in.write("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"live__grow\"}}\n"
                .getBytes(StandardCharsets.UTF_8));
        in.flush();
        // the list change is announced before or after the answer (once or more: each is a hint to list again)
        List<JsonNode> lines = new java.util.ArrayList<>(untilAnswer("3"));
        while (lines.stream().noneMatch(ModernStdioIT::isListChanged)) {
            String line = out.readLine();
            assertThat(line).as("the gateway's output ended after %s", lines).isNotNull();
            lines.add(NodeClient.JSON.readTree(line));
        }
        assertThat(lines).anyMatch(m -> m.path("id").asInt() == 3 && m.has("result"));
    }

    private static boolean isListChanged(JsonNode message) {
        return "notifications/tools/list_changed".equals(message.path("method").asText());
    }

    /** Reads lines until the answer to {@code id}; returns every line read, the answer last. */
    private List<JsonNode> untilAnswer(String id) throws IOException {
        List<JsonNode> lines = new java.util.ArrayList<>();
        while (true) {
            String line = out.readLine();
            assertThat(line).as("the gateway's output ended after %s", lines).isNotNull();
            JsonNode message = NodeClient.JSON.readTree(line);
            lines.add(message);
            if (!message.has("method") && id.equals(message.path("id").asText())) {
                return lines;
            }
        }
    }

    @Test
    void aListenStreamGetsTheListChangesItAskedForUntilItIsCancelled() throws Exception {
        start(NodeClient.manifests(dir, dir.resolve("pids"), "live"));
        assertThat(exchange(modern(1, "tools/list", "")).at("/result/tools").toString()).contains("live__grow");
        JsonNode ack = exchange("{\"jsonrpc\":\"2.0\",\"id\":\"L1\",\"method\":\"subscriptions/listen\",\"params\":{"
                + "\"notifications\":{\"toolsListChanged\":true,\"promptsListChanged\":false,\"resourceSubscriptions\":[\"file:///x\"],"
                + "\"taskIds\":[\"t\"]}," + META + "}}");
        assertThat(ack.get("method").asText()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(ack.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText()).isEqualTo("L1");
        assertThat(ack.at("/params/notifications")).isEqualTo(NodeClient.JSON.readTree("{\"toolsListChanged\":true}"));
        in.write((modern(2, "tools/call", "\"name\":\"live__grow\"") + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        List<JsonNode> lines = untilAnswer("2");
        while (lines.stream().noneMatch(m -> "notifications/tools/list_changed".equals(m.path("method").asText()))) {
            lines.add(NodeClient.JSON.readTree(out.readLine()));
        }
        JsonNode changed = lines.stream().filter(m -> m.has("method")).findFirst().orElseThrow();
        assertThat(changed.get("method").asText()).as("%s", lines).isEqualTo("notifications/tools/list_changed");
        assertThat(changed.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText()).isEqualTo("L1");
        assertThat(lines).as("no request and nothing unasked reaches a modern client: %s", lines)
                .allMatch(m -> !m.has("method") || "notifications/tools/list_changed".equals(m.get("method").asText()));

        in.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"L1\"}}\n"
                .getBytes(StandardCharsets.UTF_8));
        in.write((modern(3, "tools/call", "\"name\":\"live__grow\"") + "\n").getBytes(StandardCharsets.UTF_8));
        in.write((modern(4, "tools/call", "\"name\":\"live__sleep\",\"arguments\":{\"seconds\":2.5}") + "\n")
                .getBytes(StandardCharsets.UTF_8));
        in.flush();
        List<JsonNode> after = untilAnswer("4");
        assertThat(after).as("a cancelled stream gets nothing more, and the listen request no answer: %s", after)
                .allMatch(m -> !m.has("method") && !"L1".equals(m.path("id").asText()));
        JsonNode tools = exchange(modern(5, "tools/list", "")).get("result");
        assertThat(tools.get("tools").toString()).contains("live__extra2");
    }

    @Test
    void discoverIsNotDelayedByAPodThatHangsInItsStartup() throws Exception {
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(manifests.resolve("hangs.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: hangs }
                spec:
                  command: ["python3", "-c", "import time; time.sleep(60)"]
                  startupTimeout: 30s
                  shutdownTimeout: 3s
                """);
        start(manifests);
        in.write((modern(1, "tools/list", "") + "\n" + modern(2, "server/discover", "") + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        JsonNode first = NodeClient.JSON.readTree(out.readLine());
        assertThat(first.get("id").asInt()).as("discover is answered while tools/list waits for the pod: %s", first).isEqualTo(2);
        assertThat(first.at("/result/supportedVersions/0").asText()).isEqualTo("2026-07-28");
    }

    @Test
    void aPodThatCannotServeIs32003WithItsReason() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        // the fixture must be found an MCP pod (its resources are read below): a generous startup timeout, as a slow
        // machine must not make it a bare JSON-RPC pod that lists no resources
        NodeClient.startupTimeout(manifests.resolve("fixture.yaml"), "60s");
        // its exits end its startup: the startup timeout only guards against a hang (a short one would let a slow
        // machine take the process, silent until it exits, for a bare JSON-RPC pod that started)
        Files.writeString(manifests.resolve("broken.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: broken }
                spec:
                  command: ["python3", "-c", "raise SystemExit(4)"]
                  startupTimeout: 60s
                  tools:
                    - name: echo
                      inputSchema: { type: object }
                """);
        start(manifests);
        JsonNode startup = exchange(modern(1, "tools/call", "\"name\":\"broken__echo\""));
        assertThat(startup.at("/error/code").asInt()).as("%s", startup).isEqualTo(-32003);
        assertThat(startup.at("/error/data/reason").asText()).as("%s; the gateway's stderr: %s", startup,
                Files.readString(dir.resolve("stderr.txt"))).isEqualTo("startup");
        assertThat(exchange(modern(5, "tools/call", "\"name\":\"fixture__echo\",\"arguments\":{\"text\":\"up\"}")).at("/result/content/0/text")
                .asText()).isEqualTo("up");
        JsonNode missing = exchange(modern(6, "resources/read", "\"uri\":\"fixture://items/missing\""));
        assertThat(missing.at("/error/code").asInt()).as("a pod's own -32002 is never passed to a modern client: %s", missing)
                .isEqualTo(-32602);
        JsonNode legacyMissing = exchange("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":"
                + "\"fixture://items/missing\"}}");
        assertThat(legacyMissing.at("/error/code").asInt()).as("legacy requests get it as before: %s", legacyMissing).isEqualTo(-32002);
        JsonNode crashed = exchange(modern(2, "tools/call", "\"name\":\"fixture__crash\""));
        assertThat(crashed.at("/error/code").asInt()).as("%s", crashed).isEqualTo(-32003);
        assertThat(crashed.at("/error/data/reason").asText()).isEqualTo("unavailable");
        assertThat(crashed.at("/error/message").asText()).contains("pod fixture tool crash");
    }
}
