package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/meta-gateway} serving stdio as a process, driven line by line: what the test writes goes to its stdin,
 * each line of its stdout is queued, its stderr is kept. Signals are sent with {@code kill}. {@link #close()} kills
 * whatever is still running.
 */
final class StdioGateway implements AutoCloseable {

    /** How long a line the test waits for may take. */
    static final Duration ANSWER_WAIT = Duration.ofSeconds(30);

    private final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer stderr = new StringBuffer();

    private StdioGateway(List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Repo.tool("sh"), Repo.COMMAND.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(Repo.ROOT.toFile());
        builder.environment().remove("META_GATEWAY_TOKEN");
        this.process = builder.start();
        this.stdin = process.getOutputStream();
        pump(process.getInputStream(), lines::add, "gateway-stdout");
        pump(process.getErrorStream(), line -> stderr.append(line).append('\n'), "gateway-stderr");
    }

    /** Starts {@code bin/meta-gateway args} (stdio). */
    static StdioGateway start(String... args) throws IOException {
        return new StdioGateway(List.of(args));
    }

    private static void pump(java.io.InputStream stream, java.util.function.Consumer<String> sink, String name) {
        Thread thread = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    sink.accept(line);
                }
            } catch (IOException e) {
                sink.accept("[reading failed: " + e + "]");
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    long pid() {
        return process.pid();
    }

    String stderr() {
        return stderr.toString();
    }

    /** Waits until its stderr holds {@code text}, or it ended; true when the text came. */
    boolean awaitStderr(String text) {
        org.awaitility.Awaitility.await().atMost(ANSWER_WAIT).until(() -> stderr.indexOf(text) >= 0 || !process.isAlive());
        return stderr.indexOf(text) >= 0;
    }

    /** Writes {@code line} and a newline to the gateway's stdin. */
    void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** The next line of the gateway's stdout as JSON; fails when none comes within {@link #ANSWER_WAIT}. */
    JsonNode next() throws IOException, InterruptedException {
        String line = lines.poll(ANSWER_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(line).as("a line from the gateway within %s; stderr:%n%s", ANSWER_WAIT, stderr).isNotNull();
        return NodeClient.JSON.readTree(line);
    }

    /** The next line that is not a notification (notifications before it are dropped). */
    JsonNode nextAnswer() throws IOException, InterruptedException {
        while (true) {
            JsonNode message = next();
            if (!message.isObject() || !message.has("method")) {
                return message;
            }
        }
    }

    /** Sends {@code line} and returns the next line that is not a notification. */
    JsonNode exchange(String line) throws IOException, InterruptedException {
        send(line);
        return nextAnswer();
    }

    /** Initializes a session at protocol revision {@code version}; returns the {@code initialize} result. */
    JsonNode initialize(String version) throws IOException, InterruptedException {
        JsonNode answer = exchange("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                + version + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"line-client\",\"version\":\"1\"}}}");
        assertThat(answer.at("/result/protocolVersion").asText()).as("%s", answer).isEqualTo(version);
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return answer.get("result");
    }

    /** Sends {@code kill -NAME pid} to the gateway. */
    void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder(Repo.tool("kill"), "-" + name, Long.toString(pid())).inheritIO().start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -%s %d", name, pid()).isZero();
    }

    /** Closes the gateway's stdin (the client's end of the session). */
    void closeStdin() throws IOException {
        stdin.close();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the gateway's exit (at most 60 s) and returns its exit code. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the gateway did not end within 60 s; stderr:\n" + stderr);
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
