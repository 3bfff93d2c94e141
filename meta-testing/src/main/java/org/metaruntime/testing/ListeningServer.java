package org.metaruntime.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * A real server process the tests reach over loopback TCP (an MCP server over Streamable HTTP, a gateway over HTTP):
 * started on a port, waited for until that port accepts connections, killed (SIGKILL, with its descendants) and
 * started again on the same port. Its stdout and stderr go to a log file. Not thread-safe; close it in the test.
 *
 * <pre>{@code
 * try (ListeningServer server = ListeningServer.start("everything",
 *         port -> List.of(node, script, "streamableHttp"), port -> Map.of("PORT", String.valueOf(port)))) {
 *     URI url = URI.create("http://127.0.0.1:" + server.port() + "/mcp");
 *     server.kill();
 *     server.restart();
 * }
 * }</pre>
 */
public final class ListeningServer implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(60);

    private final String name;
    private final int port;
    private final IntFunction<List<String>> command;
    private final IntFunction<Map<String, String>> env;
    private final Path log;
    private Process process;

    private ListeningServer(String name, int port, IntFunction<List<String>> command, IntFunction<Map<String, String>> env) {
        this.name = name;
        this.port = port;
        this.command = command;
        this.env = env;
        try {
            this.log = Files.createTempFile("meta-test-" + name + "-", ".log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts {@code command(port)} with {@code env(port)} added, on a free loopback port, and waits until it listens. */
    public static ListeningServer start(String name, IntFunction<List<String>> command,
                                        IntFunction<Map<String, String>> env) {
        ListeningServer server = new ListeningServer(name, freePort(), command, env);
        server.restart();
        return server;
    }

    /** The loopback port the server listens on (the same after a restart). */
    public int port() {
        return port;
    }

    /** The server's process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether the server's process is alive. */
    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Starts the server again on the same port (after {@link #kill}) and waits until it accepts connections. */
    public void restart() {
        if (isAlive()) {
            throw new IllegalStateException(name + " is still running");
        }
        ProcessBuilder builder = new ProcessBuilder(command.apply(port)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env.apply(port));
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long deadline = System.nanoTime() + READY.toNanos();
        while (!accepts()) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with code " + process.exitValue() + " before listening on port "
                        + port + "; its output:\n" + output());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + " did not listen on port " + port + " within " + READY + "; output:\n"
                        + output());
            }
            try {
                Thread.sleep(20); // polling a port: there is no event to wait for
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /** Kills the server and its descendants with SIGKILL and waits until they are gone. */
    public void kill() {
        if (process == null) {
            return;
        }
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError(name + ": process " + h.pid() + " did not die", e);
            }
        }
    }

    /** What the server wrote so far (stdout and stderr). */
    public String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** Kills the server; removes its log. */
    @Override
    public void close() {
        kill();
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a temp file
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A loopback port nothing listens on now. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name + " on 127.0.0.1:" + port;
    }
}
