package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.metaruntime.testing.LeakCheck;

/**
 * A real MCP client session: {@code client.mjs} runs the TypeScript SDK's {@code Client} over its
 * {@code StdioClientTransport}, which spawns {@code bin/meta-gateway}, or over its Streamable HTTP or SSE
 * client transport to a {@code bin/meta-gateway --transport http} this class starts; it runs the steps and prints
 * what it saw.
 */
final class NodeClient {

    /** How the client reaches the gateway. */
    enum Transport { STDIO, STREAMABLE_HTTP, SSE }

    static final ObjectMapper JSON = new ObjectMapper();
    static final Path NODE_DIR = Path.of("src", "test", "node").toAbsolutePath();
    static final Path PODS = Path.of("src", "test", "resources", "pods").toAbsolutePath();

    /**
     * A manifests folder in {@code dir} holding the pod {@code pinned} (pinned_pod.py, 2025 era), whose tool
     * description is read from {@code dir/description.txt} (written "Reads"); {@code env} adds entries to its
     * {@code env} map, written as YAML flow entries (empty: none).
     */
    static Path pinnedPod(Path dir, String env) throws IOException {
        return pinnedPod(Files.createDirectories(dir.resolve("manifests")),
                Files.writeString(dir.resolve("description.txt"), "Reads"), env, List.of(), List.of());
    }

    /**
     * A tool the pod {@code pinned} declares: its name, description and pin ({@code sha256:<hex>}), and the other
     * lines of its entry ({@code onDrift: warn}, {@code annotations: {...}}).
     */
    record PinnedTool(String name, String description, String pin, String... more) {
    }

    /**
     * Writes the manifest {@code pinned.yaml} of the pod {@code pinned} (pinned_pod.py, 2025 era) into
     * {@code manifests}: its tool description is read from {@code description}; {@code env} adds YAML flow entries
     * to its {@code env} map (empty: none), {@code spec} lines to its spec ({@code onDrift: block},
     * {@code preWarm: true}), and {@code tools} its declared tools with their pins (empty: none). Returns
     * {@code manifests}.
     */
    static Path pinnedPod(Path manifests, Path description, String env, List<String> spec, List<PinnedTool> tools)
            throws IOException {
        StringBuilder yaml = new StringBuilder("""
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: pinned }
                spec:
                  command: [python3, pinned_pod.py]
                  workdir: %s
                  protocolEra: legacy
                  env: { PIN_DESCRIPTION_FILE: "%s"%s }
                """.formatted(PODS, description, env.isEmpty() ? "" : ", " + env));
        spec.forEach(line -> yaml.append("  ").append(line).append('\n'));
        if (!tools.isEmpty()) {
            yaml.append("  tools:\n");
        }
        for (PinnedTool tool : tools) {
            yaml.append("    - name: ").append(tool.name()).append('\n')
                    .append("      description: ").append(tool.description()).append('\n')
                    .append("      inputSchema: { type: object }\n")
                    .append("      pin: \"").append(tool.pin()).append("\"\n");
            for (String line : tool.more()) {
                yaml.append("      ").append(line).append('\n');
            }
        }
        Files.writeString(manifests.resolve("pinned.yaml"), yaml);
        return manifests;
    }

    private NodeClient() {
    }

    /** A step of the client's script. */
    static ObjectNode step(String op) {
        return JSON.createObjectNode().put("op", op);
    }

    static ObjectNode call(String name, String argumentsJson) {
        try {
            ObjectNode step = step("call").put("name", name);
            step.set("arguments", JSON.readTree(argumentsJson));
            return step;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Runs a session of {@code bin/meta-gateway gatewayArgs} with {@code steps}; returns what the client printed. */
    static JsonNode session(List<String> gatewayArgs, List<ObjectNode> steps) throws IOException, InterruptedException {
        return session(Transport.STDIO, gatewayArgs, steps);
    }

    /**
     * Runs a session over {@code transport}. Over HTTP the gateway is started first and stopped with SIGTERM after
     * the client ended (its exit code must be 0); its pid and stderr are put in the result as over stdio.
     */
    static JsonNode session(Transport transport, List<String> gatewayArgs, List<ObjectNode> steps) throws IOException, InterruptedException {
        return session("client.mjs", transport, gatewayArgs, steps);
    }

    /** Runs a session over {@code transport} with more of the client's script ({@code headers}, {@code capabilities}, ...). */
    static JsonNode session(Transport transport, List<String> gatewayArgs, List<ObjectNode> steps, ObjectNode script)
            throws IOException, InterruptedException {
        return session("client.mjs", transport, gatewayArgs, steps, script);
    }

    /**
     * Runs {@code modern.mjs}: the TypeScript SDK v2 client pinned to MCP 2026-07-28, over {@code transport} (stdio or
     * Streamable HTTP), as {@link #session(Transport, List, List)} does.
     */
    static JsonNode modernSession(Transport transport, List<String> gatewayArgs, List<ObjectNode> steps) throws IOException, InterruptedException {
        return session("modern.mjs", transport, gatewayArgs, steps, JSON.createObjectNode());
    }

    /**
     * Like {@link #modernSession(Transport, List, List)}, with more of the client's script ({@code capabilities},
     * {@code answers}, ...).
     */
    static JsonNode modernSession(Transport transport, List<String> gatewayArgs, List<ObjectNode> steps, ObjectNode script)
            throws IOException, InterruptedException {
        return session("modern.mjs", transport, gatewayArgs, steps, script);
    }

    private static JsonNode session(String client, Transport transport, List<String> gatewayArgs, List<ObjectNode> steps)
            throws IOException, InterruptedException {
        return session(client, transport, gatewayArgs, steps, JSON.createObjectNode());
    }

    private static JsonNode session(String client, Transport transport, List<String> gatewayArgs, List<ObjectNode> steps,
                                    ObjectNode base) throws IOException, InterruptedException {
        ObjectNode script = base.deepCopy();
        script.putArray("steps").addAll(steps);
        if (transport == Transport.STDIO) {
            script.put("command", Repo.tool("sh"));
            ArrayNode args = script.putArray("args").add(Repo.COMMAND.toString());
            gatewayArgs.forEach(args::add);
            script.put("cwd", Repo.ROOT.toString());
            return run(client, script, true);
        }
        HttpGateway gateway = HttpGateway.start(gatewayArgs);
        try {
            script.put("transport", transport == Transport.SSE ? "sse" : "http");
            script.put("url", transport == Transport.SSE ? gateway.base() + "/sse" : gateway.url());
            ObjectNode result = (ObjectNode) run(client, script, true);
            gateway.stopCleanly();
            result.put("gatewayPid", gateway.pid());
            result.put("stderr", gateway.stderr());
            return result;
        } finally {
            gateway.close();
        }
    }

    /** Runs {@code client.mjs} with {@code script}; returns what it printed, also when it could not connect. */
    static JsonNode runRaw(ObjectNode script) throws IOException, InterruptedException {
        return run("client.mjs", script, false);
    }

    /** Runs {@code modern.mjs} with {@code script} (a running gateway's {@code url} and the steps); returns what it printed. */
    static JsonNode runModern(ObjectNode script) throws IOException, InterruptedException {
        return run("modern.mjs", script, true);
    }

    /** Runs {@code client.mjs} with {@code script}; returns what it printed. */
    static JsonNode run(ObjectNode script) throws IOException, InterruptedException {
        return run("client.mjs", script, true);
    }

    private static JsonNode run(String client, ObjectNode script, boolean mustConnect) throws IOException, InterruptedException {
        JsonNode result = runScript(Path.of(Repo.tool("node")), client, script);
        if (mustConnect) {
            assertThat(result.has("connectError")).as("connect error: %s", result).isFalse();
        }
        return result;
    }

    /** Runs the script {@code name} of {@link #NODE_DIR} with {@code node} on {@code script}; returns what it printed. */
    static JsonNode runScript(Path node, String name, ObjectNode script) throws IOException, InterruptedException {
        Path out = Files.createTempFile("client-out", ".json");
        Path err = Files.createTempFile("client-err", ".txt");
        Path in = Files.writeString(Files.createTempFile("client-script", ".json"), script.toString());
        try {
            Process process = new ProcessBuilder(node.toString(), NODE_DIR.resolve(name).toString(), "@" + in)
                    .directory(NODE_DIR.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(150, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError(name + " did not end within 150 s; stderr: " + Files.readString(err));
            }
            String printed = Files.readString(out, StandardCharsets.UTF_8);
            assertThat(printed).as("%s output (stderr: %s)", name, Files.readString(err)).isNotBlank();
            return JSON.readTree(printed);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            Files.deleteIfExists(in);
        }
    }

    /** Writes test manifests for the fixture pods into {@code dir}; pods record their pids in {@code pids}. */
    static Path manifests(Path dir, Path pids, String... names) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("manifests"));
        Files.createDirectories(pids);
        Path templates = Path.of("src", "test", "resources", "manifests").toAbsolutePath();
        for (String name : names) {
            String yaml = Files.readString(templates.resolve(name + ".yaml"))
                    .replace("workdir: ../pods", "workdir: " + PODS
                            + "\n  env: { FIXTURE_PID_DIR: \"" + pids + "\", FIXTURE_RECORD: \"" + dir.resolve("record.txt") + "\" }");
            Files.writeString(folder.resolve(name + ".yaml"), yaml);
        }
        return folder;
    }

    /** Sets the call timeout of a manifest {@link #manifests} wrote (the fixture pods' is 10 s). */
    static void callTimeout(Path manifest, String timeout) throws IOException {
        String yaml = Files.readString(manifest);
        assertThat(yaml).contains("callTimeout: 10s");
        Files.writeString(manifest, yaml.replace("callTimeout: 10s", "callTimeout: " + timeout));
    }

    /** Sets the startup timeout of a manifest {@link #manifests} wrote for the fixture pod (10 s). */
    static void startupTimeout(Path manifest, String timeout) throws IOException {
        String yaml = Files.readString(manifest);
        assertThat(yaml).contains("startupTimeout: 10s");
        Files.writeString(manifest, yaml.replace("startupTimeout: 10s", "startupTimeout: " + timeout));
    }

    /** The lines the fixture pods recorded (cancellations). */
    static List<String> recorded(Path dir) throws IOException {
        Path file = dir.resolve("record.txt");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    /**
     * Checks with the test kit's leak check, now, that the gateway of {@code session} and every pod whose pid file is
     * in {@code pids} are gone, and that nothing else this JVM started is left.
     */
    static void assertAllGone(JsonNode session, Path pids) {
        LeakCheck left = LeakCheck.processes().pidFilesIn(() -> pids, "");
        if (session.hasNonNull("gatewayPid")) {
            ProcessHandle.of(session.get("gatewayPid").asLong()).ifPresent(left::watch);
        }
        left.assertNothingLeft();
    }
}
