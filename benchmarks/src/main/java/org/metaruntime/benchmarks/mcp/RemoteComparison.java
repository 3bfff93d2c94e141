package org.metaruntime.benchmarks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpHttpEndpoint;
import org.metaruntime.mcp.McpProbe;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * Remote MCP modules against their baselines, in one interleaved run against {@code server-everything}: (a)
 * meta-mcp over Streamable HTTP, (b) the MCP TypeScript SDK client over Streamable HTTP to the same server process,
 * and (s) meta-mcp over stdio to server-everything's stdio mode. Each round runs every path once, starting with a
 * different one; the table gives medians over rounds, ratios are medians of per-round ratios.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.mcp.RemoteComparison [--rounds 3]
 *      [--warm-calls 2000] [--inflight-calls 4000] [--connect-runs 10] [--repo .]
 * </pre>
 */
public final class RemoteComparison {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(60);
    private static final int IN_FLIGHT = 64;

    private final String node;
    private final Path everything;
    private final Path nodeDir;
    private final int warmCalls;
    private final int inflightCalls;
    private final int connectRuns;
    private final Map<String, List<Double>> results = new LinkedHashMap<>();
    private URI url;

    private RemoteComparison(Path everything, Path nodeDir, int warmCalls, int inflightCalls, int connectRuns) {
        this.node = "node";
        this.everything = everything;
        this.nodeDir = nodeDir;
        this.warmCalls = warmCalls;
        this.inflightCalls = inflightCalls;
        this.connectRuns = connectRuns;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        Path repo = Path.of(opts.getOrDefault("repo", ".")).toAbsolutePath().normalize();
        Path everything = repo.resolve("meta-mcp/src/test/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        if (!Files.isRegularFile(everything)) {
            throw new IllegalStateException("server-everything is not installed at " + everything
                    + " (build meta-mcp first: it runs npm ci for its test peers)");
        }
        RemoteComparison bench = new RemoteComparison(everything, repo.resolve("benchmarks/node"),
                Integer.parseInt(opts.getOrDefault("warm-calls", "2000")),
                Integer.parseInt(opts.getOrDefault("inflight-calls", "4000")),
                Integer.parseInt(opts.getOrDefault("connect-runs", "10")));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
        if (!Files.isDirectory(bench.nodeDir.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(bench.nodeDir.toFile())
                    .inheritIO().start();
            if (npm.waitFor() != 0) {
                throw new IllegalStateException("npm ci failed in " + bench.nodeDir);
            }
        }
        System.out.println(Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("java.vm.name")
                + " " + System.getProperty("java.version"));
        int port = freePort();
        Process withPort = null;
        try {
            ProcessBuilder builder = new ProcessBuilder(bench.node, everything.toString(), "streamableHttp")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().put("PORT", String.valueOf(port));
            withPort = builder.start();
            waitForPort(port);
            bench.url = URI.create("http://127.0.0.1:" + port + "/mcp");
            for (int round = 1; round <= rounds; round++) {
                bench.round(round);
                System.out.println("round " + round + " done");
            }
        } finally {
            if (withPort != null) {
                withPort.destroyForcibly().waitFor();
            }
        }
        System.out.println();
        System.out.println(bench.table());
    }

    private interface Step {
        void run() throws Exception;
    }

    private void round(int round) throws Exception {
        rotated(round, List.of(
                () -> record("a.warm.us", warm(remote())),
                () -> record("b.warm.us", tsClient("warm", warmCalls).get("usPerCall").asDouble()),
                () -> record("s.warm.us", warm(stdio()))));
        rotated(round, List.of(
                () -> record("a.64.cps", inFlight(remote())),
                () -> record("b.64.cps", tsClient("inflight", inflightCalls).get("callsPerSecond").asDouble()),
                () -> record("s.64.cps", inFlight(stdio()))));
        rotated(round, List.of(
                () -> record("a.connect.ms", connectRemote()),
                () -> record("b.connect.ms", tsClient("connect", connectRuns).get("msPerRun").asDouble()),
                () -> record("s.connect.ms", connectStdio())));
    }

    private static void rotated(int round, List<Step> steps) throws Exception {
        for (int i = 0; i < steps.size(); i++) {
            steps.get((i + round) % steps.size()).run();
        }
    }

    private McpConnection remote() {
        return McpConnection.open(McpHttpEndpoint.of("remote", url), McpClientOptions.defaults(), T);
    }

    private ProcessSpec stdioSpec() {
        return ProcessSpec.builder("stdio").command(node, everything.toString()).build();
    }

    private McpConnection stdio() {
        return McpConnection.open(stdioSpec(), McpClientOptions.defaults(), T);
    }

    private static ObjectNode echo(String message) {
        return JSON.createObjectNode().put("message", message);
    }

    private static void check(JsonNode answer, String message) {
        if (!("Echo: " + message).equals(answer.asText())) {
            throw new IllegalStateException("mismatched answer " + answer + " to " + message);
        }
    }

    /** Sequential warm calls on one session; µs per call. */
    private double warm(McpConnection c) {
        try (c) {
            for (int i = 0; i < Math.min(warmCalls, 500); i++) {
                check(c.callTool("echo", echo("w" + i), T), "w" + i);
            }
            long start = System.nanoTime();
            for (int i = 0; i < warmCalls; i++) {
                check(c.callTool("echo", echo("m" + i), T), "m" + i);
            }
            return (System.nanoTime() - start) / 1e3 / warmCalls;
        }
    }

    /** {@value #IN_FLIGHT} calls kept in flight on one session; calls per second (a lost call fails the run). */
    private double inFlight(McpConnection c) throws InterruptedException {
        try (c) {
            for (int i = 0; i < 500; i++) {
                check(c.callTool("echo", echo("w" + i), T), "w" + i);
            }
            AtomicInteger next = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(inflightCalls);
            List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
            long start = System.nanoTime();
            for (int w = 0; w < IN_FLIGHT; w++) {
                issue(c, next, done, errors);
            }
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("in-flight run did not finish");
            }
            if (!errors.isEmpty()) {
                throw new IllegalStateException(errors.size() + " calls lost, first: " + errors.get(0));
            }
            return inflightCalls / ((System.nanoTime() - start) / 1e9);
        }
    }

    private void issue(McpConnection c, AtomicInteger next, CountDownLatch done, List<Throwable> errors) {
        int i = next.getAndIncrement();
        if (i >= inflightCalls) {
            return;
        }
        CompletableFuture<JsonNode> call = c.callToolAsync("echo", echo("c" + i), T);
        call.whenComplete((answer, e) -> {
            if (e != null) {
                errors.add(e);
            } else {
                try {
                    check(answer, "c" + i);
                } catch (RuntimeException x) {
                    errors.add(x);
                }
            }
            done.countDown();
            issue(c, next, done, errors);
        });
    }

    /** Connect, initialize, list tools, close (remote: the session ended with DELETE); ms per run. */
    private double connectRemote() {
        long total = 0;
        for (int i = 0; i < connectRuns; i++) {
            long start = System.nanoTime();
            McpProbe.probe(McpHttpEndpoint.of("remote", url), McpClientOptions.defaults(), T).connection().close(T);
            total += System.nanoTime() - start;
        }
        return total / 1e6 / connectRuns;
    }

    /** Spawn, initialize, list tools, close (the stop ladder); ms per run. */
    private double connectStdio() {
        long total = 0;
        for (int i = 0; i < connectRuns; i++) {
            long start = System.nanoTime();
            McpProbe.probe(stdioSpec(), McpClientOptions.defaults(), T).connection().close(T);
            total += System.nanoTime() - start;
        }
        return total / 1e6 / connectRuns;
    }

    private JsonNode tsClient(String mode, int count) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(node, nodeDir.resolve("remote-client.mjs").toString(), mode, url.toString(),
                String.valueOf(count), String.valueOf(IN_FLIGHT)).directory(nodeDir.toFile())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("node remote-client failed: " + out);
        }
        return JSON.readTree(out.substring(out.lastIndexOf('\n') + 1));
    }

    private void record(String key, double value) {
        results.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }

    private double median(String key) {
        List<Double> values = new ArrayList<>(results.get(key));
        Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private double ratio(String a, String b) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < results.get(a).size(); i++) {
            ratios.add(results.get(a).get(i) / results.get(b).get(i));
        }
        Collections.sort(ratios);
        int n = ratios.size();
        return n % 2 == 1 ? ratios.get(n / 2) : (ratios.get(n / 2 - 1) + ratios.get(n / 2)) / 2;
    }

    private String table() {
        StringBuilder t = new StringBuilder();
        t.append("| path | (a) meta-mcp, HTTP | (b) TS SDK client, HTTP | (s) meta-mcp, stdio |\n|---|---:|---:|---:|\n");
        t.append(String.format(Locale.ROOT, "| warm `tools/call`, µs/call | %.1f | %.1f | %.1f |%n",
                median("a.warm.us"), median("b.warm.us"), median("s.warm.us")));
        t.append(String.format(Locale.ROOT, "| 64 in flight, calls/s (0 lost) | %,.0f | %,.0f | %,.0f |%n",
                median("a.64.cps"), median("b.64.cps"), median("s.64.cps")));
        t.append(String.format(Locale.ROOT, "| connect + initialize + list + close, ms | %.1f | %.1f | %.1f (spawn) |%n",
                median("a.connect.ms"), median("b.connect.ms"), median("s.connect.ms")));
        t.append("\n| ratio | value |\n|---|---:|\n");
        t.append(String.format(Locale.ROOT, "| warm (a) / (b) | %.2f |%n", ratio("a.warm.us", "b.warm.us")));
        t.append(String.format(Locale.ROOT, "| warm (a) / (s) | %.2f |%n", ratio("a.warm.us", "s.warm.us")));
        t.append(String.format(Locale.ROOT, "| 64 in flight (a) / (b) | %.2f |%n", ratio("a.64.cps", "b.64.cps")));
        t.append(String.format(Locale.ROOT, "| connect (a) / (b) | %.2f |%n", ratio("a.connect.ms", "b.connect.ms")));
        t.append(String.format(Locale.ROOT, "| connect (a) / spawn (s) | %.2f |%n", ratio("a.connect.ms", "s.connect.ms")));
        return t.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void waitForPort(int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("server-everything did not listen on port " + port);
    }
}
