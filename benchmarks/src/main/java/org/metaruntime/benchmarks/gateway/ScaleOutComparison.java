package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.metaruntime.benchmarks.harness.NodeBench;
import org.metaruntime.benchmarks.harness.Options;
import org.metaruntime.benchmarks.harness.Ports;
import org.metaruntime.benchmarks.harness.Rounds;

/**
 * Gateway replicas behind HAProxy (round robin, no stickiness) sharing one PostgreSQL database: calls per second of
 * {@code lean-client.mjs} (one legacy session, 64 calls in flight) through HAProxy in front of 1 replica and of 3,
 * with the CPU each process spent per call (the replicas' JVMs, their pods, HAProxy, the client), which bounds the
 * ratio on a machine with few cores; and the first request of a session on a replica that does not hold it (read
 * from the database) against the next one; and a request forwarded to the replica that owns what it is about
 * ({@code tasks/cancel} of a task of r1 sent to r2) against the same request sent to the owner. {@code --state} is
 * the JDBC URL of a PostgreSQL server where a fresh database may be created (default: {@code META_EVENTLOG_PG_URL});
 * {@code --mode forwarding} starts the three replicas and times the forwarded requests only.
 */
public final class ScaleOutComparison {

    private static final long TICKS_PER_SECOND = 100;
    private static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final Path jar;
    private final Path work;
    private final String database;
    private final Path clusterKey;
    private final String haproxy;
    private final List<Process> processes = new CopyOnWriteArrayList<>();
    private int[] ports;
    private int balancerPort;

    private ScaleOutComparison(Path jar, Path work, String database, Path clusterKey, String haproxy) {
        this.jar = jar;
        this.work = work;
        this.database = database;
        this.clusterKey = clusterKey;
        this.haproxy = haproxy;
    }

    /** What one topology did over one measured run. */
    private record Run(int replicas, double callsPerSecond, double lost, double gatewayUs, double podUs, double haproxyUs,
                       double clientUs) {
        double totalUs() {
            return gatewayUs + podUs + haproxyUs + clientUs;
        }
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(ScaleOutComparison.class, args, "calls", "6000", "warmup-calls", "3000",
                "sessions", "40", "forwarded", "300", "mode", "all", "repo", ".", "haproxy", "/usr/sbin/haproxy",
                "state", System.getenv().getOrDefault("META_EVENTLOG_PG_URL", ""));
        Path repo = opts.path("repo");
        Path jar = GatewayHttpComparison.gatewayJar(repo);
        if (opts.value("state").isBlank()) {
            throw new IllegalStateException("give --state jdbc:postgresql://HOST:PORT/postgres?user=... (or set META_EVENTLOG_PG_URL)");
        }
        NodeBench bench = new NodeBench(repo.resolve("benchmarks/node"));
        String python = NodeBench.realPython();
        Path server = repo.resolve("meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py");
        Path work = Files.createTempDirectory("scale-out-bench");
        GatewayComparison.writePod(work, "py", python, server, true);
        Files.writeString(work.resolve("wait.yaml"), "apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata: { name: wait }\n"
                + "spec:\n  command: [\"" + python + "\", \"" + server + "\"]\n  tools:\n    - name: slow\n"
                + "      inputSchema: { type: object, properties: { ms: { type: number } } }\n");
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Path clusterKey = Files.writeString(work.resolve("cluster.key"), HexFormat.of().formatHex(key));
        String admin = opts.value("state");
        String name = "meta_bench_" + ProcessHandle.current().pid();
        sql(admin, "CREATE DATABASE " + name);
        ScaleOutComparison harness = new ScaleOutComparison(jar, work, withDatabase(admin, name), clusterKey, opts.value("haproxy"));
        Thread stop = new Thread(() -> GatewayHttpComparison.stop(harness.processes), "bench-stop-servers");
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            System.out.println(Rounds.machine());
            if ("forwarding".equals(opts.value("mode"))) {
                harness.startReplicas(3);
                System.out.println(harness.forwarded(opts.integer("forwarded")));
                return;
            }
            List<Run> runs = new ArrayList<>();
            String lookups = null;
            String forwarded = null;
            for (int replicas : new int[] {1, 3}) {
                List<Process> gateways = harness.startReplicas(replicas);
                Process balancer = harness.startHaproxy(gateways.size());
                String spec = NodeBench.JSON.createObjectNode().put("url", "http://127.0.0.1:" + harness.balancerPort + "/mcp")
                        .put("transport", "http").put("tool", "py__echo").toString();
                bench.run("lean-client.mjs", "inflight", opts.integer("warmup-calls"), spec);
                long[] before = cpu(gateways, balancer);
                JsonNode r = bench.run("lean-client.mjs", "inflight", opts.integer("calls"), spec);
                long[] after = cpu(gateways, balancer);
                double perCall = 1e6 / TICKS_PER_SECOND / opts.integer("calls");
                Run run = new Run(replicas, r.get("callsPerSecond").asDouble(), r.get("lost").asDouble(),
                        (after[0] - before[0]) * perCall, (after[1] - before[1]) * perCall,
                        (after[2] - before[2]) * perCall, (after[3] - before[3]) * perCall);
                runs.add(run);
                System.out.println(run);
                if (replicas == 3) {
                    lookups = harness.firstLookups(opts.integer("sessions"));
                    forwarded = harness.forwarded(opts.integer("forwarded"));
                }
                balancer.destroy();
                balancer.waitFor();
                GatewayHttpComparison.stop(gateways);
                harness.processes.clear();
            }
            System.out.println();
            System.out.println(report(runs, lookups));
            System.out.println(forwarded);
        } finally {
            GatewayHttpComparison.stop(harness.processes);
            Runtime.getRuntime().removeShutdownHook(stop);
            sql(admin, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    private List<Process> startReplicas(int count) throws Exception {
        ports = Ports.free(count);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> gateways = new ArrayList<>();
        for (int port : ports) {
            gateways.add(GatewayHttpComparison.start(processes, List.of(java, "-jar", jar.toString(), "--manifests",
                    work.toString(), "--transport", "http", "--port", Integer.toString(port), "--log-level", "warn",
                    "--state", database, "--advertise-url", "http://127.0.0.1:" + port,
                    "--cluster-key-file", clusterKey.toString(), "--task-after", "200ms")));
        }
        for (Process gateway : gateways) {
            GatewayHttpComparison.awaitLine(gateway, GatewayHttpComparison.READY, 120);
        }
        return gateways;
    }

    private Process startHaproxy(int count) throws Exception {
        balancerPort = Ports.free(1)[0];
        StringBuilder config = new StringBuilder("global\n  maxconn 4096\n\ndefaults\n  mode http\n  option redispatch\n"
                + "  retries 3\n  timeout connect 2s\n  timeout client 120s\n  timeout server 120s\n\n"
                + "frontend mcp\n  bind 127.0.0.1:" + balancerPort + "\n  default_backend gateways\n\n"
                + "backend gateways\n  balance roundrobin\n");
        for (int i = 0; i < count; i++) {
            config.append("  server r").append(i + 1).append(" 127.0.0.1:").append(ports[i]).append('\n');
        }
        Path file = Files.writeString(work.resolve("haproxy-" + count + ".cfg"), config);
        Process p = new ProcessBuilder(haproxy, "-db", "-f", file.toString()).redirectErrorStream(true)
                .redirectOutput(work.resolve("haproxy.log").toFile()).start();
        p.getOutputStream().close();
        processes.add(p);
        Ports.await(balancerPort, 30);
        return p;
    }

    /** The first and the second request of fresh sessions on replica r2, each session opened on r1; medians in µs. */
    private String firstLookups(int sessions) throws Exception {
        List<Long> first = new ArrayList<>();
        List<Long> second = new ArrayList<>();
        String r1 = "http://127.0.0.1:" + ports[0] + "/mcp";
        String r2 = "http://127.0.0.1:" + ports[1] + "/mcp";
        for (int i = 0; i < sessions + 5; i++) {
            HttpResponse<String> init = post(r1, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}");
            String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow(() -> new IllegalStateException(init.body()));
            post(r1, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
            long t0 = System.nanoTime();
            HttpResponse<String> a = post(r2, id, list);
            long t1 = System.nanoTime();
            HttpResponse<String> b = post(r2, id, list);
            long t2 = System.nanoTime();
            if (a.statusCode() != 200 || b.statusCode() != 200) {
                throw new IllegalStateException("r2 did not serve the session of r1: " + a.statusCode() + " " + a.body());
            }
            if (i >= 5) {
                first.add((t1 - t0) / 1000);
                second.add((t2 - t1) / 1000);
            }
        }
        long m1 = median(first);
        long m2 = median(second);
        return "| first request of a session on a replica that does not hold it (r1 opened it, r2 reads it) | " + m1
                + " µs |\n| the next request of that session on r2 | " + m2 + " µs |\n| the lookup's cost (difference) | "
                + (m1 - m2) + " µs |\n";
    }

    /**
     * {@code tasks/cancel} of a finished task of r1 (its state is answered) sent {@code samples} times to r1 itself and
     * as many times to r2, which forwards it to r1, alternately after a warm-up; medians in µs and their ratio.
     */
    private String forwarded(int samples) throws Exception {
        String owner = "http://127.0.0.1:" + ports[0] + "/mcp";
        String other = "http://127.0.0.1:" + ports[1] + "/mcp";
        String answer = modern(owner, "tools/call", "wait__slow", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"wait__slow\",\"arguments\":{\"ms\":600}," + MODERN_META + "}}").body();
        String[] lines = answer.strip().split("\\r?\\n");
        String last = lines[lines.length - 1];
        JsonNode handle = NodeBench.JSON.readTree(last.startsWith("data:") ? last.substring(5) : answer);
        String task = handle.at("/result/taskId").asText();
        if (task.isEmpty()) {
            throw new IllegalStateException("the call did not become a task: " + handle);
        }
        String cancel = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tasks/cancel\",\"params\":{\"taskId\":\"" + task + "\","
                + MODERN_META + "}}";
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!modern(owner, "tasks/get", task, cancel.replace("tasks/cancel", "tasks/get")).body().contains("\"completed\"")) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("task " + task + " did not complete");
            }
            Thread.sleep(100);
        }
        List<Long> direct = new ArrayList<>();
        List<Long> viaOther = new ArrayList<>();
        int warmup = Math.max(50, samples / 4);
        for (int i = 0; i < warmup + samples; i++) {
            long t0 = System.nanoTime();
            HttpResponse<String> a = modern(owner, "tasks/cancel", task, cancel);
            long t1 = System.nanoTime();
            HttpResponse<String> b = modern(other, "tasks/cancel", task, cancel);
            long t2 = System.nanoTime();
            if (!a.body().contains("\"completed\"") || !a.body().equals(b.body())) {
                throw new IllegalStateException("the owner and the forwarding replica answered differently: " + a.body()
                        + " / " + b.body());
            }
            if (i >= warmup) {
                direct.add((t1 - t0) / 1000);
                viaOther.add((t2 - t1) / 1000);
            }
        }
        long m1 = median(direct);
        long m2 = median(viaOther);
        return "| tasks/cancel of r1's task sent to r1 (median of " + samples + ") | " + m1 + " µs |\n"
                + "| the same sent to r2, forwarded to r1 | " + m2 + " µs |\n"
                + "| forwarding's cost (difference) | " + (m2 - m1) + " µs |\n"
                + String.format("| forwarded / direct | %.2f× |%n", (double) m2 / m1);
    }

    private static HttpResponse<String> modern(String url, String method, String name, String body)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method).header("Mcp-Name", name)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String url, String session, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25").POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** CPU ticks so far: the replicas' JVMs, their pods, HAProxy, and the children this JVM reaped (the clients). */
    private static long[] cpu(List<Process> gateways, Process balancer) throws IOException {
        long jvms = 0;
        long pods = 0;
        for (Process gateway : gateways) {
            jvms += ticks(gateway.pid(), false);
            for (ProcessHandle pod : gateway.descendants().toList()) {
                pods += ticks(pod.pid(), false);
            }
        }
        return new long[] {jvms, pods, ticks(balancer.pid(), false), ticks(ProcessHandle.current().pid(), true)};
    }

    /** utime + stime of {@code pid} ({@code children}: cutime + cstime, the reaped children's). */
    private static long ticks(long pid, boolean children) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1);
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        int at = children ? 13 : 11;
        return Long.parseLong(fields[at]) + Long.parseLong(fields[at + 1]);
    }

    private static String report(List<Run> runs, String lookups) {
        StringBuilder out = new StringBuilder("| replicas | calls/s | lost | gateway JVMs µs/call | pods µs/call | HAProxy µs/call"
                + " | client µs/call | all µs/call | bound on 2 cores (calls/s) |\n|---|---|---|---|---|---|---|---|---|\n");
        for (Run run : runs) {
            out.append(String.format("| %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |%n", run.replicas(),
                    run.callsPerSecond(), run.lost(), run.gatewayUs(), run.podUs(), run.haproxyUs(), run.clientUs(),
                    run.totalUs(), 2e6 / run.totalUs()));
        }
        if (runs.size() == 2) {
            out.append(String.format("%n3 replicas / 1 replica: %.2f×%n", runs.get(1).callsPerSecond() / runs.get(0).callsPerSecond()));
        }
        return out.append('\n').append(lookups == null ? "" : lookups).toString();
    }

    private static void sql(String url, String statement) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private static String withDatabase(String url, String name) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        int slash = base.indexOf('/', "jdbc:postgresql://".length());
        return (slash < 0 ? base : base.substring(0, slash)) + "/" + name + (query < 0 ? "" : url.substring(query));
    }
}
