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
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.metaruntime.benchmarks.harness.NodeBench;
import org.metaruntime.benchmarks.harness.Options;
import org.metaruntime.benchmarks.harness.Rounds;
import org.metaruntime.benchmarks.harness.Timing;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpPerCall;
import org.metaruntime.mcp.McpProbe;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessListener;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * Side-by-side comparison of the MCP boundary (through the {@code UnifiedRuntime} facade and through
 * {@code McpConnection} alone) against the MCP Java SDK client, the MCP TypeScript SDK client and a raw pipe, all talking to the same raw python MCP server launched through the real interpreter path.
 * One run, interleaved: every round runs each path once (starting with a different path each round), and the
 * table reports the median over rounds.
 *
 * <p>{@code --era} picks the protocol era: {@code legacy} (2025-11-25: the server as the tests start it, which the
 * library's probe finds legacy; the TypeScript SDK 1.x client), {@code modern} (2026-07-28: the server started with
 * {@code --modern}, which the library's probe finds modern; the TypeScript SDK v2 client pinned to 2026-07-28; the
 * Java SDK client still speaks 2025-11-25 to it, as it has no other era), or {@code both} (each round runs the legacy
 * round and the modern round, in turn first; one table per era). Every answer is checked; a wrong or failed one
 * counts as lost.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.mcp.McpComparison [--rounds 7] [--warm-calls 20000]
 *      [--inflight-calls 20000] [--cold-runs 5] [--era legacy|modern|both] [--repo .]
 * </pre>
 */
public final class McpComparison {

    private static final ObjectMapper JSON = NodeBench.JSON;
    private static final Duration T = Duration.ofSeconds(60);
    private static final int WARMUP = 2000;
    private static final String FLOOR_SCRIPT = "import sys\n"
            + "out = sys.stdout.buffer\n"
            + "for line in sys.stdin.buffer:\n"
            + "    out.write(line)\n"
            + "    out.flush()\n";

    private final String python;
    private final Path server;
    private final boolean modern;
    private final NodeBench nodeClient;
    private final Rounds rounds = new Rounds();
    private final int warmCalls;
    private final int inflightCalls;
    private final int coldRuns;

    private McpComparison(String python, Path server, boolean modern, NodeBench node, int warmCalls, int inflightCalls,
                          int coldRuns) {
        this.python = python;
        this.server = server;
        this.modern = modern;
        this.nodeClient = node;
        this.warmCalls = warmCalls;
        this.inflightCalls = inflightCalls;
        this.coldRuns = coldRuns;
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(McpComparison.class, args, "rounds", "7", "warm-calls", "20000",
                "inflight-calls", "20000", "cold-runs", "5", "era", "legacy", "repo", ".");
        Path repo = opts.path("repo");
        String python = NodeBench.realPython();
        Path server = repo.resolve("meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py");
        NodeBench node = new NodeBench(repo.resolve("benchmarks/node"));
        List<McpComparison> benches = new ArrayList<>();
        String era = opts.value("era");
        if (!List.of("legacy", "modern", "both").contains(era)) {
            throw new IllegalArgumentException("--era must be legacy, modern or both, not " + era);
        }
        for (boolean modern : new boolean[] {false, true}) {
            if (era.equals("both") || era.equals(modern ? "modern" : "legacy")) {
                benches.add(new McpComparison(python, server, modern, node, opts.integer("warm-calls"),
                        opts.integer("inflight-calls"), opts.integer("cold-runs")));
            }
        }
        node.ensureNodeModules("@modelcontextprotocol/sdk");
        if (!era.equals("legacy")) {
            node.ensureNodeModules("@modelcontextprotocol/client");
        }
        System.out.println("python: " + python + ", " + Rounds.machine());
        for (int round = 1; round <= opts.integer("rounds"); round++) {
            List<Rounds.Step> eras = new ArrayList<>();
            for (McpComparison bench : benches) {
                int r = round;
                eras.add(() -> {
                    bench.round(r);
                    System.out.println("round " + r + " (" + bench.eraName() + "): " + bench.rounds.lastRound());
                });
            }
            Rounds.rotated(round, eras);
        }
        for (McpComparison bench : benches) {
            System.out.println();
            System.out.println(bench.table());
        }
    }

    private String eraName() {
        return modern ? "2026-07-28" : "2025-11-25";
    }

    private void round(int round) throws Exception {
        Rounds.rotated(round, List.of(
                () -> rounds.record("a.warm.us", oursWarm()),
                () -> rounds.record("r.warm.us", routedWarm()),
                () -> rounds.record("b.warm.us", sdkWarm()),
                () -> {
                    rounds.record("c.floor.us", floorRawPipe());
                    rounds.record("c2.floor.process.us", floorProcessLayer());
                },
                () -> rounds.record("d.warm.us", node("warm", warmCalls).get("usPerCall").asDouble())));
        Rounds.rotated(round, List.of(
                () -> record("a.64", oursInFlight()),
                () -> record("r.64", routedInFlight()),
                () -> record("b.64", sdkInFlight()),
                () -> {
                    JsonNode d64 = node("inflight", inflightCalls);
                    rounds.record("d.64.cps", d64.get("callsPerSecond").asDouble());
                    rounds.record("d.64.lost", d64.get("lost").asDouble());
                }));
        Rounds.rotated(round, List.of(
                () -> rounds.record("a.cold.ms", oursCold()),
                () -> rounds.record("b.cold.ms", sdkCold()),
                () -> rounds.record("d.cold.ms", node("cold", coldRuns).get("msPerRun").asDouble())));
    }

    private void record(String path, Timing.InFlight r) {
        rounds.record(path + ".cps", r.callsPerSecond());
        rounds.record(path + ".lost", r.lost());
    }

    // ---- (a) our PERSISTENT session and PER_CALL path

    /** The server's command: with {@code --modern} in the modern era. */
    private List<String> serverCommand() {
        return modern ? List.of(python, server.toString(), "--modern") : List.of(python, server.toString());
    }

    private ProcessSpec spec() {
        return ProcessSpec.builder("bench").command(serverCommand()).build();
    }

    /** Throws unless the library speaks this era's protocol version ({@code version}) with the server. */
    private void expectEra(String version) {
        if (!eraName().equals(version)) {
            throw new IllegalStateException("the library spoke " + version + " in the " + eraName() + " run");
        }
    }

    private McpConnection connection() throws Exception {
        McpConnection c = McpProbe.probe(spec(), McpClientOptions.defaults(), T).connection();
        try {
            expectEra(c.protocolVersion());
        } catch (IllegalStateException e) {
            c.close(T);
            throw e;
        }
        return c;
    }

    private double oursWarm() throws Exception {
        McpConnection c = connection();
        try {
            return Timing.sequential(Math.min(warmCalls, WARMUP), warmCalls,
                    text -> Timing.expect(text, c.callTool("echo", args(text), T).textValue()));
        } finally {
            c.close(T);
        }
    }

    private Timing.InFlight oursInFlight() throws Exception {
        McpConnection c = connection();
        try {
            Timing.warmUp(WARMUP, text -> c.callTool("echo", args(text), T));
            return Timing.inFlight(inflightCalls,
                    i -> c.callToolAsync("echo", args("c" + i), T).thenApply(a -> Timing.expect("c" + i, a.textValue())));
        } finally {
            c.close(T);
        }
    }

    private double oursCold() throws Exception {
        return Timing.msPerRun(coldRuns,
                () -> Timing.expect("cold", McpPerCall.call(spec(), "echo", args("cold"), T, McpClientOptions.defaults()).textValue()));
    }

    // ---- (r) the same session, through the UnifiedRuntime facade

    private UnifiedRuntime runtime() {
        MetaConfig config = MetaConfig.builder()
                .module(ModuleConfig.builder("bench").command(serverCommand()).build())
                .discover("bench")
                .preSpawn(new PreSpawnData("bench", List.of(Map.entry("META_MODULE_BOUNDARY", "mcp"))))
                .build();
        UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(RuntimeOptions.builder().shutdownHook(false).build())
                .start();
        try {
            expectEra(runtime.mcp("bench").protocolVersion());
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    private static ModuleRouteRequest routed(String text) {
        return new ModuleRouteRequest("bench", "echo", args(text));
    }

    private double routedWarm() throws Exception {
        try (UnifiedRuntime runtime = runtime()) {
            return Timing.sequential(Math.min(warmCalls, WARMUP), warmCalls,
                    text -> Timing.expect(text, runtime.routeModuleCall(routed(text), T).payload().textValue()));
        }
    }

    private Timing.InFlight routedInFlight() throws Exception {
        try (UnifiedRuntime runtime = runtime()) {
            Timing.warmUp(WARMUP, text -> runtime.routeModuleCall(routed(text), T));
            return Timing.inFlight(inflightCalls, i -> runtime.routeModuleCallAsync(routed("c" + i), T)
                    .thenApply(r -> Timing.expect("c" + i, r.payload().textValue())));
        }
    }

    // ---- (b) the MCP Java SDK client with its own StdioClientTransport

    private StdioClientTransport sdkTransport() {
        List<String> command = serverCommand();
        return new StdioClientTransport(ServerParameters.builder(python).args(command.subList(1, command.size())).build(),
                new JacksonMcpJsonMapper(JSON));
    }

    private static McpSchema.CallToolRequest sdkEcho(String text) {
        return new McpSchema.CallToolRequest("echo", Map.of("text", text));
    }

    private static String sdkText(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private double sdkWarm() throws Exception {
        McpSyncClient client = McpClient.sync(sdkTransport()).requestTimeout(T).build();
        try {
            client.initialize();
            client.listTools();
            return Timing.sequential(Math.min(warmCalls, WARMUP), warmCalls,
                    text -> Timing.expect(text, sdkText(client.callTool(sdkEcho(text)))));
        } finally {
            client.closeGracefully();
        }
    }

    private Timing.InFlight sdkInFlight() throws Exception {
        McpAsyncClient client = McpClient.async(sdkTransport()).requestTimeout(T).build();
        try {
            client.initialize().block();
            client.listTools().block();
            Timing.warmUp(WARMUP, text -> client.callTool(sdkEcho(text)).block());
            return Timing.inFlight(inflightCalls,
                    i -> client.callTool(sdkEcho("c" + i)).map(r -> Timing.expect("c" + i, sdkText(r))).toFuture());
        } finally {
            client.closeGracefully().block(T);
        }
    }

    private double sdkCold() throws Exception {
        return Timing.msPerRun(coldRuns, () -> {
            McpSyncClient client = McpClient.sync(sdkTransport()).requestTimeout(T).build();
            client.initialize();
            client.listTools();
            String text = sdkText(client.callTool(sdkEcho("cold")));
            client.closeGracefully();
            Timing.expect("cold", text);
        });
    }

    // ---- (c) the floor: one JSON line to a child and back, no protocol

    private static final String FLOOR_LINE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"m\"}}}";

    /** Written and read on the calling thread, straight on the pipes. */
    private double floorRawPipe() throws Exception {
        Process p = new ProcessBuilder(python, "-c", FLOOR_SCRIPT).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            byte[] line = (FLOOR_LINE + "\n").getBytes(StandardCharsets.UTF_8);
            return Timing.sequential(WARMUP, warmCalls, text -> {
                in.write(line);
                in.flush();
                if (out.readLine() == null) {
                    throw new IllegalStateException("echo child ended");
                }
            });
        } finally {
            p.destroy();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** The same through the runtime's process layer (stdin writer, stdout reader thread, a future per line). */
    private double floorProcessLayer() throws Exception {
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        ModuleProcess p = ModuleProcess.start(ProcessSpec.builder("floor").command(python, "-c", FLOOR_SCRIPT).build(),
                new ProcessListener() {
                    @Override
                    public void onLine(String line) {
                        lines.add(line);
                    }
                });
        try {
            return Timing.sequential(WARMUP, warmCalls, text -> {
                p.send(FLOOR_LINE);
                lines.take();
            });
        } finally {
            p.close();
        }
    }

    // ---- (d) the MCP TypeScript SDK client (node)

    /** bench-client.mjs: the SDK 1.x client, or in the modern era the SDK v2 client pinned to 2026-07-28. */
    private JsonNode node(String mode, int count) throws IOException, InterruptedException {
        return modern ? nodeClient.run("bench-client.mjs", mode, count, python, server.toString(), "--modern")
                : nodeClient.run("bench-client.mjs", mode, count, python, server.toString());
    }

    // ---- helpers

    private static ObjectNode args(String text) {
        return JSON.createObjectNode().put("text", text);
    }

    private double median(String key) {
        return rounds.median(key);
    }

    private double ratio(String numerator, String denominator) {
        return rounds.ratio(numerator, denominator);
    }

    private double sum(String key) {
        return rounds.sum(key);
    }

    private String table() {
        double a = median("a.warm.us");
        double b = median("b.warm.us");
        double c = median("c.floor.us");
        double d = median("d.warm.us");
        StringBuilder sb = new StringBuilder();
        sb.append(modern ? "era 2026-07-28: (r), (a) found modern by server/discover; (d) the TypeScript SDK v2 client pinned to "
                + "2026-07-28; (b) speaks 2025-11-25 to the same server (it has no other era)\n"
                : "era 2025-11-25: (r), (a) found legacy by server/discover, then initialize; (d) the TypeScript SDK 1.x client\n");
        sb.append("| path | (r) UnifiedRuntime | (a) meta-mcp | (b) Java SDK client | (d) TypeScript SDK client | (c) floor |\n");
        sb.append("|---|---|---|---|---|---|\n");
        sb.append(String.format(Locale.ROOT, "| warm sequential tools/call, µs/call | %.1f | %.1f | %.1f | %.1f | %.1f (process layer: %.1f) |%n",
                median("r.warm.us"), a, b, d, c, median("c2.floor.process.us")));
        sb.append(String.format(Locale.ROOT, "| 64 in flight, calls/s (lost) | %.0f (%.0f) | %.0f (%.0f) | %.0f (%.0f) | %.0f (%.0f) | |%n",
                median("r.64.cps"), sum("r.64.lost"), median("a.64.cps"), sum("a.64.lost"), median("b.64.cps"),
                sum("b.64.lost"), median("d.64.cps"), sum("d.64.lost")));
        sb.append(String.format(Locale.ROOT, "| cold spawn+initialize+list+call+close, ms | | %.1f | %.1f | %.1f | |%n",
                median("a.cold.ms"), median("b.cold.ms"), median("d.cold.ms")));
        sb.append('\n');
        sb.append("ratios, median over rounds of the per-round ratio:\n");
        sb.append(String.format(Locale.ROOT, "warm: r/b = %.2f (target <= 0.6), r/d = %.2f (target <= 1.0), r/c = %.1f (target <= 3)%n",
                ratio("r.warm.us", "b.warm.us"), ratio("r.warm.us", "d.warm.us"), ratio("r.warm.us", "c.floor.us")));
        sb.append(String.format(Locale.ROOT, "warm: a/b = %.2f, a/d = %.2f, a/c = %.1f%n",
                ratio("a.warm.us", "b.warm.us"), ratio("a.warm.us", "d.warm.us"), ratio("a.warm.us", "c.floor.us")));
        sb.append(String.format(Locale.ROOT, "64 in flight: r/d = %.2f (target >= 2.0, 0 lost), a/d = %.2f, a/b = %.2f; lost r=%.0f a=%.0f b=%.0f d=%.0f%n",
                ratio("r.64.cps", "d.64.cps"), ratio("a.64.cps", "d.64.cps"), ratio("a.64.cps", "b.64.cps"), sum("r.64.lost"),
                sum("a.64.lost"), sum("b.64.lost"), sum("d.64.lost")));
        sb.append(String.format(Locale.ROOT, "cold: a/d = %.2f (target <= 1.0), a/b = %.2f%n",
                ratio("a.cold.ms", "d.cold.ms"), ratio("a.cold.ms", "b.cold.ms")));
        return sb.toString();
    }
}
