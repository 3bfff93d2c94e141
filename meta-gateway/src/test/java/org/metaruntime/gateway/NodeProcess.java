package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * {@code client.mjs} (or {@code modern.mjs}) running in the background: for several clients at once, and for a client killed mid-call.
 * Its stdout lines are collected as they come.
 */
final class NodeProcess implements AutoCloseable {

    private final Process process;
    private final Path script;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final StringBuffer stderr = new StringBuffer();

    private NodeProcess(String client, ObjectNode script) throws IOException {
        this.script = Files.writeString(Files.createTempFile("client-script", ".json"), script.toString());
        this.process = new ProcessBuilder(Repo.tool("node"), NodeClient.NODE_DIR.resolve(client).toString(), "@" + this.script)
                .directory(NodeClient.NODE_DIR.toFile()).start();
        process.getOutputStream().close();
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), lines::add);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), l -> stderr.append(l).append('\n'));
    }

    static NodeProcess start(ObjectNode script) throws IOException {
        return new NodeProcess("client.mjs", script);
    }

    /** Starts {@code modern.mjs} (the SDK v2 client of 2026-07-28) with {@code script}. */
    static NodeProcess startModern(ObjectNode script) throws IOException {
        return new NodeProcess("modern.mjs", script);
    }

    private static void pump(BufferedReader reader, java.util.function.Consumer<String> sink) {
        Thread t = new Thread(() -> {
            try (reader) {
                String line;
                while ((line = reader.readLine()) != null) {
                    sink.accept(line);
                }
            } catch (IOException e) {
                sink.accept("[read failed: " + e + "]");
            }
        }, "node-client-output");
        t.setDaemon(true);
        t.start();
    }

    /** Waits until it printed a line containing {@code text}. */
    void awaitLine(String text) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> lines.stream().anyMatch(l -> l.contains(text)));
    }

    /** Kills it at once (SIGKILL): its connections close without a word. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Waits for its end and returns the session it printed. */
    JsonNode result() throws IOException, InterruptedException {
        if (!process.waitFor(150, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the client did not end within 150 s; stderr: " + stderr);
        }
        assertThat(lines).as("client output (stderr: %s)", stderr).isNotEmpty();
        JsonNode result = NodeClient.JSON.readTree(lines.get(lines.size() - 1));
        assertThat(result.has("connectError")).as("connect error: %s", result).isFalse();
        return result;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (process.isAlive()) {
            kill();
        }
        Files.deleteIfExists(script);
    }
}
