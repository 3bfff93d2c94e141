package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/meta-gateway --transport http --port 0 ...} (or the {@code --port} given) as a process: started, its readiness line read off its
 * stderr (which is kept), stopped with SIGTERM.
 */
final class HttpGateway implements AutoCloseable {

    private static final Pattern READY = Pattern.compile("^meta-gateway listening on (http://\\S+/mcp)$");

    private final Process process;
    private final StringBuffer stderr = new StringBuffer();
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile String url;

    private HttpGateway(List<String> args, Map<String, String> env) throws IOException {
        List<String> command = new ArrayList<>(List.of(Repo.tool("sh"), Repo.COMMAND.toString(), "--transport", "http"));
        if (!args.contains("--port")) {
            command.addAll(List.of("--port", "0"));
        }
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(Repo.ROOT.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().remove("META_GATEWAY_TOKEN");
        builder.environment().putAll(env);
        this.process = builder.start();
        process.getOutputStream().close();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    stderr.append(line).append('\n');
                    Matcher m = READY.matcher(line);
                    if (m.matches()) {
                        url = m.group(1);
                        ready.countDown();
                    }
                }
            } catch (IOException e) {
                stderr.append("[reading stderr failed: ").append(e).append("]\n");
            } finally {
                ready.countDown();
            }
        }, "gateway-stderr");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the gateway and waits for its readiness line. */
    static HttpGateway start(List<String> args) throws IOException, InterruptedException {
        return start(args, Map.of());
    }

    static HttpGateway start(List<String> args, Map<String, String> env) throws IOException, InterruptedException {
        HttpGateway gateway = new HttpGateway(args, env);
        if (!gateway.ready.await(120, TimeUnit.SECONDS) || gateway.url == null) {
            gateway.process.destroyForcibly();
            throw new AssertionError("no readiness line from the gateway; stderr:\n" + gateway.stderr);
        }
        return gateway;
    }

    /**
     * The environment that starts a gateway whose idle HTTP threads end after {@code idle} rather than 10 s, with
     * the build's JVM options ({@code META_GATEWAY_JAVA_OPTS}) or, when {@code fullJit}, without them.
     */
    static Map<String, String> threadIdleTimeout(String idle, boolean fullJit) {
        String inherited = fullJit ? "" : System.getenv().getOrDefault("META_GATEWAY_JAVA_OPTS", "");
        return Map.of("META_GATEWAY_JAVA_OPTS", (inherited + " -Dmeta.gateway.httpThreadIdleTimeout=" + idle).strip());
    }

    /** {@code http://127.0.0.1:PORT/mcp}. */
    String url() {
        return url;
    }

    /** The base URL, {@code http://127.0.0.1:PORT}. */
    String base() {
        return url.substring(0, url.length() - "/mcp".length());
    }

    long pid() {
        return process.pid();
    }

    String stderr() {
        return stderr.toString();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Completes when the process has ended, however it was stopped. */
    java.util.concurrent.CompletableFuture<Process> exited() {
        return process.onExit();
    }

    /** SIGTERM, then waits for the exit; returns the exit code. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("the gateway did not end within 60 s of SIGTERM; stderr:\n" + stderr);
        }
        return process.exitValue();
    }

    /** Stops it and checks the exit code is 0. */
    void stopCleanly() throws InterruptedException {
        int code = stop();
        assertThat(code).as("exit code after SIGTERM; stderr:\n%s", stderr).isZero();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            stop();
        }
    }
}
