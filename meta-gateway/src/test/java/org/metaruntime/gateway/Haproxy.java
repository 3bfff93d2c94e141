package org.metaruntime.gateway;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A real HAProxy ({@code /usr/sbin/haproxy}, Debian package {@code haproxy}) in front of gateway replicas: round
 * robin over every request, no stickiness of any kind, health checks on {@code /healthz}, a connection refused by a
 * dead replica retried on another. Its configuration ({@link #config}, the one docs/gateway.md shows) is written to a
 * temporary folder; it listens on a free loopback port and answers with an {@code X-Served-By} header naming the
 * replica. Stopped with SIGTERM by {@link #close()}.
 */
final class Haproxy implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/sbin/haproxy");

    private final Process process;
    private final int port;
    private final Path log;

    private Haproxy(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Fails under CI ({@code CI} set) and skips elsewhere when HAProxy is not installed. */
    static void require() {
        boolean found = Files.isExecutable(BINARY);
        if (!found && System.getenv("CI") != null) {
            fail(BINARY + " is required by the scale-out tests under CI (.ci/run installs haproxy)");
        }
        assumeTrue(found, BINARY + " is not installed");
    }

    /**
     * The configuration: one frontend bound to {@code bind} ({@code 127.0.0.1:8080}, {@code :8080}, ...), one backend of
     * {@code replicas} ({@code host:port} each) in round robin.
     */
    static String config(String bind, List<String> replicas) {
        StringBuilder servers = new StringBuilder();
        for (int i = 0; i < replicas.size(); i++) {
            servers.append("  server r").append(i + 1).append(' ').append(replicas.get(i))
                    .append(" check inter 1s fall 2 rise 1\n");
        }
        return """
                global
                  maxconn 4096

                defaults
                  mode http
                  option redispatch
                  retries 3
                  timeout connect 2s
                  timeout client 120s
                  timeout server 120s
                  timeout tunnel 1h

                frontend mcp
                  bind %s
                  default_backend gateways

                backend gateways
                  balance roundrobin
                  option httpchk GET /healthz
                  http-response set-header X-Served-By %%[srv_name]
                %s""".formatted(bind, servers);
    }

    /** Starts HAProxy in front of {@code replicas} ({@code host:port} each) and waits until it listens. */
    static Haproxy start(Path dir, List<String> replicas) throws IOException {
        require();
        int port = freePort();
        Path config = Files.writeString(dir.resolve("haproxy.cfg"), config("127.0.0.1:" + port, replicas));
        Path log = dir.resolve("haproxy.log");
        Process process = new ProcessBuilder(BINARY.toString(), "-db", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        process.getOutputStream().close();
        Haproxy haproxy = new Haproxy(process, port, log);
        try {
            Awaitility.await("HAProxy listening on " + port).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new AssertionError("HAProxy ended: " + haproxy.log());
                        }
                        return accepts(port);
                    });
        } catch (RuntimeException | AssertionError e) {
            process.destroyForcibly();
            throw e;
        }
        return haproxy;
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    String base() {
        return "http://127.0.0.1:" + port;
    }

    /** {@code http://127.0.0.1:PORT/mcp}. */
    String url() {
        return base() + "/mcp";
    }

    long pid() {
        return process.pid();
    }

    /** What HAProxy printed. */
    String log() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "[" + e + "]";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("HAProxy did not end within 20 s of SIGTERM");
        }
    }
}
