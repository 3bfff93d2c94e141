package org.metaruntime.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.PostgresServer;
import org.metaruntime.testing.ProcessLeaks;

/**
 * Several gateway replicas behind one load balancer, on loopback: {@code count} {@code bin/meta-gateway --transport
 * http} processes with the same manifests, each on a free port, and a real {@link Haproxy} in round robin in front
 * of them. With {@code shared} state the replicas form a cluster: the same fresh PostgreSQL database as
 * {@code --state} (from {@link PostgresServer}: CI's server or a throwaway one), the same {@code --cluster-key-file},
 * and each its own {@code --advertise-url}. {@link #close()} stops everything, drops the database and checks that no
 * process is left.
 */
final class Topology implements AutoCloseable {

    private final Path dir;
    private final String database;
    private final Path clusterKey;
    private final List<HttpGateway> replicas;
    private final Haproxy balancer;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Topology(Path dir, String database, Path clusterKey, List<HttpGateway> replicas, Haproxy balancer) {
        this.dir = dir;
        this.database = database;
        this.clusterKey = clusterKey;
        this.replicas = replicas;
        this.balancer = balancer;
    }

    /**
     * Starts {@code count} replicas of {@code bin/meta-gateway --manifests manifests args...} (all at once) and the
     * balancer in front of them.
     */
    static Topology start(Path dir, Path manifests, int count, boolean shared, List<String> args) throws Exception {
        return start(dir, manifests, count, shared, args, UnaryOperator.identity());
    }

    /**
     * As {@link #start(Path, Path, int, boolean, List)}, with the replicas reaching the database on
     * {@code route.apply(url)} (through a forwarder a test controls) rather than on its URL.
     */
    static Topology start(Path dir, Path manifests, int count, boolean shared, List<String> args,
                          UnaryOperator<String> route) throws Exception {
        return start(dir, manifests, count, shared, args, route, i -> Map.of());
    }

    /**
     * A cluster (shared state) of {@code environments.size()} replicas, replica {@code i} started with
     * {@code environments.get(i)} added to its environment (a replica whose clock is off: {@link Faketime#env}).
     */
    static Topology start(Path dir, Path manifests, List<String> args, List<Map<String, String>> environments)
            throws Exception {
        return start(dir, manifests, environments.size(), true, args, UnaryOperator.identity(), environments::get);
    }

    private static Topology start(Path dir, Path manifests, int count, boolean shared, List<String> args,
                                  UnaryOperator<String> route, IntFunction<Map<String, String>> environment)
            throws Exception {
        Haproxy.require();
        String database = shared ? PostgresServer.get().freshDatabase() : null;
        Path clusterKey = null;
        if (shared) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            clusterKey = Files.writeString(dir.resolve("cluster.key"), HexFormat.of().formatHex(key));
        }
        List<String> common = new ArrayList<>(List.of("--manifests", manifests.toString()));
        if (shared) {
            common.addAll(List.of("--state", route.apply(database), "--cluster-key-file", clusterKey.toString()));
        }
        common.addAll(args);
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ports.add(Haproxy.freePort());
        }
        List<HttpGateway> replicas = new ArrayList<>();
        ExecutorService starter = Executors.newFixedThreadPool(count);
        try {
            List<Future<HttpGateway>> started = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                List<String> own = replicaArgs(common, ports.get(i), shared);
                Map<String, String> env = environment.apply(i);
                started.add(starter.submit(() -> HttpGateway.start(own, env)));
            }
            AssertionError failure = null;
            for (Future<HttpGateway> future : started) {
                try {
                    replicas.add(future.get(150, TimeUnit.SECONDS));
                } catch (Exception e) {
                    failure = failure == null ? new AssertionError("a replica did not start", e) : failure;
                }
            }
            if (failure != null) {
                for (HttpGateway replica : replicas) {
                    replica.close();
                }
                dropQuietly(database);
                throw failure;
            }
        } finally {
            starter.shutdownNow();
        }
        Haproxy balancer;
        try {
            balancer = Haproxy.start(dir, ports.stream().map(p -> "127.0.0.1:" + p).toList());
        } catch (IOException | RuntimeException | AssertionError e) {
            for (HttpGateway replica : replicas) {
                replica.close();
            }
            dropQuietly(database);
            throw e;
        }
        return new Topology(dir, database, clusterKey, replicas, balancer);
    }

    private static List<String> replicaArgs(List<String> common, int port, boolean shared) {
        List<String> own = new ArrayList<>(common);
        own.addAll(List.of("--port", Integer.toString(port)));
        if (shared) {
            own.addAll(List.of("--advertise-url", "http://127.0.0.1:" + port));
        }
        return own;
    }

    private static void dropQuietly(String database) {
        if (database != null) {
            PostgresServer.get().dropDatabase(database);
        }
    }

    /** The balancer's {@code /mcp}: where the clients go. */
    String url() {
        return balancer.url();
    }

    Haproxy balancer() {
        return balancer;
    }

    /** The replicas, in the balancer's order ({@code r1} first). */
    List<HttpGateway> replicas() {
        return replicas;
    }

    HttpGateway replica(int index) {
        return replicas.get(index);
    }

    /** The JDBC URL of the shared database, or null without shared state. */
    String database() {
        return database;
    }

    /** The folder of the topology's files (manifests, pods' records, HAProxy's configuration). */
    Path dir() {
        return dir;
    }

    /** The cluster key file, or null without shared state. */
    Path clusterKey() {
        return clusterKey;
    }

    /** A GET of {@code path} on one replica, directly. */
    HttpResponse<String> get(int replica, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(replicas.get(replica).base() + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A JSON-RPC answer and the replica the balancer sent the request to ({@code r1}, ...). */
    record Answer(int status, String servedBy, JsonNode body) {
    }

    /**
     * A modern (2026-07-28) request {@code method} with {@code params} (the {@code _meta} of the era added), POSTed
     * to {@code url}; an event-stream answer is read to its JSON-RPC response.
     */
    Answer modern(String url, String method, String name, ObjectNode params) throws IOException, InterruptedException {
        return modern(url, method, name, params, false);
    }

    private Answer modern(String url, String method, String name, ObjectNode params, boolean tasks)
            throws IOException, InterruptedException {
        ObjectNode withMeta = params.deepCopy();
        ObjectNode capabilities = withMeta.putObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
                .putObject("io.modelcontextprotocol/clientCapabilities");
        if (tasks) {
            capabilities.putObject("extensions").putObject("io.modelcontextprotocol/tasks");
        }
        List<String> headers = new ArrayList<>(List.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method));
        if (name != null) {
            headers.addAll(List.of("Mcp-Name", name));
        }
        return post(url, request(method, withMeta), headers);
    }

    /**
     * As {@link #modern}, from a client that declared the tasks extension ({@code io.modelcontextprotocol/tasks}): a
     * long {@code tools/call} may be answered with a task handle.
     */
    Answer modernTasks(String url, String method, String name, ObjectNode params) throws IOException, InterruptedException {
        return modern(url, method, name, params, true);
    }

    /**
     * A legacy session opened on {@code url}: {@code initialize} (protocol 2025-11-25) and its
     * {@code notifications/initialized}; returns the session id.
     */
    String openLegacy(String url) throws IOException, InterruptedException {
        String initialize = request("initialize", NodeClient.JSON.createObjectNode().put("protocolVersion", "2025-11-25")
                .<ObjectNode>set("capabilities", NodeClient.JSON.createObjectNode())
                .set("clientInfo", NodeClient.JSON.createObjectNode().put("name", "topology").put("version", "1")));
        HttpResponse<String> opened = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(initialize)).build(), HttpResponse.BodyHandlers.ofString());
        String id = opened.headers().firstValue("Mcp-Session-Id").orElse(null);
        if (opened.statusCode() != 200 || id == null) {
            throw new AssertionError("initialize on " + url + " answered " + opened.statusCode() + " " + opened.body());
        }
        HttpResponse<String> initialized = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25").header("Mcp-Session-Id", id)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (initialized.statusCode() != 202) {
            throw new AssertionError("notifications/initialized on " + url + " answered " + initialized.statusCode());
        }
        return id;
    }

    /** A legacy request {@code method} of the session {@code sessionId} (protocol 2025-11-25), POSTed to {@code url}. */
    Answer legacy(String url, String sessionId, String method, ObjectNode params) throws IOException, InterruptedException {
        return post(url, request(method, params), List.of("MCP-Protocol-Version", "2025-11-25", "Mcp-Session-Id", sessionId));
    }

    /** {@code DELETE url} of the session {@code sessionId}: its end. */
    Answer delete(String url, String sessionId) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Mcp-Session-Id", sessionId).header("MCP-Protocol-Version", "2025-11-25").DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.headers().firstValue("X-Served-By").orElse(null), null);
    }

    private static String request(String method, ObjectNode params) {
        ObjectNode body = NodeClient.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", method);
        body.set("params", params);
        return body.toString();
    }

    private Answer post(String url, String body, List<String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.size(); i += 2) {
            request.header(headers.get(i), headers.get(i + 1));
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        String text = response.body();
        if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            String last = null;
            for (String line : text.split("\\r?\\n")) {
                if (line.startsWith("data:")) {
                    last = line.substring(5).strip();
                }
            }
            text = last;
        }
        JsonNode json;
        try {
            json = text == null || text.isBlank() ? null : NodeClient.JSON.readTree(text);
        } catch (IOException e) {
            json = NodeClient.JSON.getNodeFactory().textNode(text);
        }
        return new Answer(response.statusCode(), response.headers().firstValue("X-Served-By").orElse(null), json);
    }

    /** Kills a replica at once (SIGKILL) and returns the processes it had started (its pods), as they were. */
    List<ProcessHandle> kill(int index) throws InterruptedException {
        HttpGateway replica = replicas.get(index);
        // the handle is taken first: once killed and reaped, the pid no longer names a process
        ProcessHandle process = ProcessHandle.of(replica.pid())
                .orElseThrow(() -> new AssertionError("replica " + index + " is not running"));
        List<ProcessHandle> children = process.descendants().toList();
        process.destroyForcibly();
        ProcessLeaks.assertDead(process);
        return children;
    }

    /** The advertised URLs of the replicas registered in the shared database. */
    List<String> registered() throws SQLException {
        List<String> urls = new ArrayList<>();
        try (Connection c = PostgresServer.dataSource(database).getConnection(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT url FROM gateway_replica")) {
            while (rows.next()) {
                urls.add(rows.getString(1));
            }
        }
        return urls;
    }

    /** What every replica printed on stderr, for failure messages. */
    String stderr() {
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < replicas.size(); i++) {
            all.append("--- replica r").append(i + 1).append(":\n").append(replicas.get(i).stderr());
        }
        return all.append("--- haproxy:\n").append(balancer.log()).toString();
    }

    /**
     * Stops the balancer and every live replica with SIGTERM (each must exit 0 and remove itself from the database),
     * drops the database, and checks that nothing this JVM started is left.
     */
    @Override
    public void close() throws Exception {
        List<Throwable> failures = new ArrayList<>();
        try {
            balancer.close();
        } catch (Throwable e) {
            failures.add(e);
        }
        List<String> stopped = new ArrayList<>();
        for (HttpGateway replica : replicas) {
            try {
                if (replica.isAlive()) {
                    replica.stopCleanly();
                    stopped.add(replica.base());
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        }
        try {
            if (database != null) {
                List<String> left = registered().stream().filter(stopped::contains).toList();
                if (!left.isEmpty()) {
                    failures.add(new AssertionError("replicas still registered after a clean stop: " + left));
                }
            }
        } catch (Throwable e) {
            failures.add(e);
        }
        try {
            dropQuietly(database);
        } catch (Throwable e) {
            failures.add(e);
        }
        try {
            LeakCheck.processes().assertNothingLeft();
        } catch (Throwable e) {
            failures.add(e);
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("the topology did not stop cleanly in " + dir, failures.get(0));
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }
}
