package org.metaruntime.benchmarks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
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
import java.util.function.IntFunction;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpPerCall;
import org.metaruntime.mcp.McpProbe;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessListener;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * Side-by-side comparison of the MCP boundary against the MCP Java SDK client, the MCP TypeScript SDK client
 * and a raw pipe, all talking to the same raw python MCP server launched through the real interpreter path.
 * One run, interleaved: every round runs each path once (starting with a different path each round), and the
 * table reports the median over rounds.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.mcp.McpComparison [--rounds 7] [--warm-calls 20000]
 *      [--inflight-calls 20000] [--cold-runs 5] [--repo .]
 * </pre>
 */
public final class McpComparison {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(60);
    private static final int IN_FLIGHT = 64;
    private static final String FLOOR_SCRIPT = "import sys\n"
            + "out = sys.stdout.buffer\n"
            + "for line in sys.stdin.buffer:\n"
            + "    out.write(line)\n"
            + "    out.flush()\n";

    private final String python;
    private final Path server;
    private final Path nodeDir;
    private final int warmCalls;
    private final int inflightCalls;
    private final int coldRuns;
    private final Map<String, List<Double>> results = new LinkedHashMap<>();

    private McpComparison(String python, Path server, Path nodeDir, int warmCalls, int inflightCalls, int coldRuns) {
        this.python = python;
        this.server = server;
        this.nodeDir = nodeDir;
        this.warmCalls = warmCalls;
        this.inflightCalls = inflightCalls;
        this.coldRuns = coldRuns;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        Path repo = Path.of(opts.getOrDefault("repo", ".")).toAbsolutePath().normalize();
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "7"));
        McpComparison bench = new McpComparison(realPython(),
                repo.resolve("meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py"), repo.resolve("benchmarks/node"),
                Integer.parseInt(opts.getOrDefault("warm-calls", "20000")),
                Integer.parseInt(opts.getOrDefault("inflight-calls", "20000")),
                Integer.parseInt(opts.getOrDefault("cold-runs", "5")));
        bench.ensureNodeModules();
        System.out.println("python: " + bench.python + ", " + Runtime.getRuntime().availableProcessors() + " cores, "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        for (int round = 1; round <= rounds; round++) {
            bench.round(round);
            System.out.println("round " + round + ": " + bench.lastRound());
        }
        System.out.println();
        System.out.println(bench.table());
    }

    /** One measurement of a round. */
    private interface Step {
        void run() throws Exception;
    }

    private void round(int round) throws Exception {
        rotated(round, List.of(
                () -> record("a.warm.us", oursWarm()),
                () -> record("b.warm.us", sdkWarm()),
                () -> {
                    record("c.floor.us", floorRawPipe());
                    record("c2.floor.process.us", floorProcessLayer());
                },
                () -> record("d.warm.us", node("warm", warmCalls).get("usPerCall").asDouble())));
        rotated(round, List.of(
                () -> {
                    double[] a64 = oursInFlight();
                    record("a.64.cps", a64[0]);
                    record("a.64.lost", a64[1]);
                },
                () -> {
                    double[] b64 = sdkInFlight();
                    record("b.64.cps", b64[0]);
                    record("b.64.lost", b64[1]);
                },
                () -> {
                    JsonNode d64 = node("inflight", inflightCalls);
                    record("d.64.cps", d64.get("callsPerSecond").asDouble());
                    record("d.64.lost", d64.get("lost").asDouble());
                }));
        rotated(round, List.of(
                () -> record("a.cold.ms", oursCold()),
                () -> record("b.cold.ms", sdkCold()),
                () -> record("d.cold.ms", node("cold", coldRuns).get("msPerRun").asDouble())));
    }

    /** Runs the steps starting at a different one each round, so no path always goes first. */
    private static void rotated(int round, List<Step> steps) throws Exception {
        for (int i = 0; i < steps.size(); i++) {
            steps.get((round + i) % steps.size()).run();
        }
    }

    // ---- (a) our PERSISTENT session and PER_CALL path

    private ProcessSpec spec() {
        return ProcessSpec.builder("bench").command(python, server.toString()).build();
    }

    private double oursWarm() {
        McpConnection c = McpProbe.probe(spec(), McpClientOptions.defaults(), T).connection();
        try {
            for (int i = 0; i < Math.min(warmCalls, 2000); i++) {
                c.callTool("echo", args("w" + i), T);
            }
            long start = System.nanoTime();
            for (int i = 0; i < warmCalls; i++) {
                String text = "m" + i;
                if (!text.equals(c.callTool("echo", args(text), T).textValue())) {
                    throw new IllegalStateException("mismatched answer");
                }
            }
            return (System.nanoTime() - start) / 1000.0 / warmCalls;
        } finally {
            c.close(T);
        }
    }

    private double[] oursInFlight() throws InterruptedException {
        McpConnection c = McpProbe.probe(spec(), McpClientOptions.defaults(), T).connection();
        try {
            for (int i = 0; i < 2000; i++) {
                c.callTool("echo", args("w" + i), T);
            }
            return inFlight(i -> c.callToolAsync("echo", args("c" + i), T).thenApply(JsonNode::textValue));
        } finally {
            c.close(T);
        }
    }

    private double oursCold() {
        long total = 0;
        for (int i = 0; i < coldRuns; i++) {
            long start = System.nanoTime();
            JsonNode payload = McpPerCall.call(spec(), "echo", args("cold"), T, McpClientOptions.defaults());
            total += System.nanoTime() - start;
            if (!"cold".equals(payload.textValue())) {
                throw new IllegalStateException("mismatched answer");
            }
        }
        return total / 1e6 / coldRuns;
    }

    // ---- (b) the MCP Java SDK client with its own StdioClientTransport

    private StdioClientTransport sdkTransport() {
        return new StdioClientTransport(ServerParameters.builder(python).args(server.toString()).build(),
                new JacksonMcpJsonMapper(JSON));
    }

    private static McpSchema.CallToolRequest sdkEcho(String text) {
        return new McpSchema.CallToolRequest("echo", Map.of("text", text));
    }

    private static String sdkText(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private double sdkWarm() {
        McpSyncClient client = McpClient.sync(sdkTransport()).requestTimeout(T).build();
        try {
            client.initialize();
            client.listTools();
            for (int i = 0; i < Math.min(warmCalls, 2000); i++) {
                client.callTool(sdkEcho("w" + i));
            }
            long start = System.nanoTime();
            for (int i = 0; i < warmCalls; i++) {
                String text = "m" + i;
                if (!text.equals(sdkText(client.callTool(sdkEcho(text))))) {
                    throw new IllegalStateException("mismatched answer");
                }
            }
            return (System.nanoTime() - start) / 1000.0 / warmCalls;
        } finally {
            client.closeGracefully();
        }
    }

    private double[] sdkInFlight() throws InterruptedException {
        McpAsyncClient client = McpClient.async(sdkTransport()).requestTimeout(T).build();
        try {
            client.initialize().block();
            client.listTools().block();
            for (int i = 0; i < 2000; i++) {
                client.callTool(sdkEcho("w" + i)).block();
            }
            return inFlight(i -> client.callTool(sdkEcho("c" + i)).map(McpComparison::sdkText).toFuture());
        } finally {
            client.closeGracefully().block(T);
        }
    }

    private double sdkCold() {
        long total = 0;
        for (int i = 0; i < coldRuns; i++) {
            long start = System.nanoTime();
            McpSyncClient client = McpClient.sync(sdkTransport()).requestTimeout(T).build();
            client.initialize();
            client.listTools();
            String text = sdkText(client.callTool(sdkEcho("cold")));
            client.closeGracefully();
            total += System.nanoTime() - start;
            if (!"cold".equals(text)) {
                throw new IllegalStateException("mismatched answer");
            }
        }
        return total / 1e6 / coldRuns;
    }

    // ---- (c) the floor: one JSON line to a child and back, no protocol

    private static final String FLOOR_LINE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"m\"}}}";

    /** Written and read on the calling thread, straight on the pipes. */
    private double floorRawPipe() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(python, "-c", FLOOR_SCRIPT).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            byte[] line = (FLOOR_LINE + "\n").getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 2000; i++) {
                in.write(line);
                in.flush();
                out.readLine();
            }
            long start = System.nanoTime();
            for (int i = 0; i < warmCalls; i++) {
                in.write(line);
                in.flush();
                if (out.readLine() == null) {
                    throw new IllegalStateException("echo child ended");
                }
            }
            return (System.nanoTime() - start) / 1000.0 / warmCalls;
        } finally {
            p.destroy();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** The same through the runtime's process layer (stdin writer, stdout reader thread, a future per line). */
    private double floorProcessLayer() throws Exception {
        java.util.concurrent.LinkedBlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        ModuleProcess p = ModuleProcess.start(ProcessSpec.builder("floor").command(python, "-c", FLOOR_SCRIPT).build(),
                new ProcessListener() {
                    @Override
                    public void onLine(String line) {
                        lines.add(line);
                    }
                });
        try {
            for (int i = 0; i < 2000; i++) {
                p.send(FLOOR_LINE);
                lines.take();
            }
            long start = System.nanoTime();
            for (int i = 0; i < warmCalls; i++) {
                p.send(FLOOR_LINE);
                lines.take();
            }
            return (System.nanoTime() - start) / 1000.0 / warmCalls;
        } finally {
            p.close();
        }
    }

    // ---- (d) the MCP TypeScript SDK client (node)

    private JsonNode node(String mode, int count) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("node", nodeDir.resolve("bench-client.mjs").toString(), mode, python,
                server.toString(), Integer.toString(count), Integer.toString(IN_FLIGHT))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().close();
        String out;
        try (InputStream s = p.getInputStream()) {
            out = new String(s.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("node bench-client failed: " + out);
        }
        return JSON.readTree(out.substring(out.lastIndexOf('\n') + 1));
    }

    private void ensureNodeModules() throws IOException, InterruptedException {
        if (Files.isDirectory(nodeDir.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            return;
        }
        Process p = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(nodeDir.toFile()).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("npm ci failed in " + nodeDir);
        }
    }

    // ---- helpers

    /** Keeps {@value #IN_FLIGHT} calls in flight until {@code inflightCalls} are done; returns {calls/s, lost}. */
    private double[] inFlight(IntFunction<CompletableFuture<String>> call) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(inflightCalls);
        long start = System.nanoTime();
        for (int w = 0; w < IN_FLIGHT; w++) {
            issue(call, next, lost, done);
        }
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("in-flight run did not finish");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new double[] {inflightCalls / seconds, lost.get()};
    }

    private void issue(IntFunction<CompletableFuture<String>> call, AtomicInteger next, AtomicInteger lost, CountDownLatch done) {
        int i = next.getAndIncrement();
        if (i >= inflightCalls) {
            return;
        }
        CompletableFuture<String> f;
        try {
            f = call.apply(i);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((text, e) -> {
            if (e != null || !("c" + i).equals(text)) {
                lost.incrementAndGet();
            }
            done.countDown();
            issue(call, next, lost, done);
        });
    }

    private static ObjectNode args(String text) {
        return JSON.createObjectNode().put("text", text);
    }

    private static String realPython() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").start();
        String path = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0 || path.isEmpty()) {
            throw new IllegalStateException("python3 not found");
        }
        return path;
    }

    private void record(String key, double value) {
        results.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }

    private String lastRound() {
        StringBuilder sb = new StringBuilder();
        results.forEach((k, v) -> sb.append(k).append('=').append(String.format(Locale.ROOT, "%.1f", v.get(v.size() - 1))).append(' '));
        return sb.toString().trim();
    }

    private double median(String key) {
        List<Double> values = new ArrayList<>(results.get(key));
        Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    /** The median over rounds of {@code numerator / denominator} measured in the same round. */
    private double ratio(String numerator, String denominator) {
        List<Double> n = results.get(numerator);
        List<Double> d = results.get(denominator);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            ratios.add(n.get(i) / d.get(i));
        }
        Collections.sort(ratios);
        int k = ratios.size();
        return k % 2 == 1 ? ratios.get(k / 2) : (ratios.get(k / 2 - 1) + ratios.get(k / 2)) / 2;
    }

    private double sum(String key) {
        return results.get(key).stream().mapToDouble(Double::doubleValue).sum();
    }

    private String table() {
        double a = median("a.warm.us");
        double b = median("b.warm.us");
        double c = median("c.floor.us");
        double d = median("d.warm.us");
        StringBuilder sb = new StringBuilder();
        sb.append("| path | (a) meta-mcp | (b) Java SDK client | (d) TypeScript SDK client | (c) floor |\n");
        sb.append("|---|---|---|---|---|\n");
        sb.append(String.format(Locale.ROOT, "| warm sequential tools/call, µs/call | %.1f | %.1f | %.1f | %.1f (process layer: %.1f) |%n",
                a, b, d, c, median("c2.floor.process.us")));
        sb.append(String.format(Locale.ROOT, "| 64 in flight, calls/s (lost) | %.0f (%.0f) | %.0f (%.0f) | %.0f (%.0f) | |%n",
                median("a.64.cps"), sum("a.64.lost"), median("b.64.cps"), sum("b.64.lost"), median("d.64.cps"), sum("d.64.lost")));
        sb.append(String.format(Locale.ROOT, "| cold spawn+initialize+list+call+close, ms | %.1f | %.1f | %.1f | |%n",
                median("a.cold.ms"), median("b.cold.ms"), median("d.cold.ms")));
        sb.append('\n');
        sb.append("ratios, median over rounds of the per-round ratio:\n");
        sb.append(String.format(Locale.ROOT, "warm: a/b = %.2f (target <= 0.8), a/d = %.2f (target <= 1.0), a/c = %.1f (aim <= 4)%n",
                ratio("a.warm.us", "b.warm.us"), ratio("a.warm.us", "d.warm.us"), ratio("a.warm.us", "c.floor.us")));
        sb.append(String.format(Locale.ROOT, "64 in flight: a/d = %.2f (target >= 1.0), a/b = %.2f; lost a=%.0f b=%.0f d=%.0f%n",
                ratio("a.64.cps", "d.64.cps"), ratio("a.64.cps", "b.64.cps"), sum("a.64.lost"), sum("b.64.lost"), sum("d.64.lost")));
        sb.append(String.format(Locale.ROOT, "cold: a/d = %.2f (target <= 1.0), a/b = %.2f%n",
                ratio("a.cold.ms", "d.cold.ms"), ratio("a.cold.ms", "b.cold.ms")));
        return sb.toString();
    }
}
