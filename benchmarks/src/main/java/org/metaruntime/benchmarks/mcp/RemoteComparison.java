package org.metaruntime.benchmarks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.metaruntime.benchmarks.harness.NodeBench;
import org.metaruntime.benchmarks.harness.Options;
import org.metaruntime.benchmarks.harness.Ports;
import org.metaruntime.benchmarks.harness.Rounds;
import org.metaruntime.benchmarks.harness.Timing;
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

    private static final Duration T = Duration.ofSeconds(60);
    private static final int WARMUP = 500;

    private final String node;
    private final Path everything;
    private final NodeBench nodeClient;
    private final Rounds rounds = new Rounds();
    private final int warmCalls;
    private final int inflightCalls;
    private final int connectRuns;
    private URI url;

    private RemoteComparison(Path everything, NodeBench nodeClient, int warmCalls, int inflightCalls, int connectRuns) {
        this.node = "node";
        this.everything = everything;
        this.nodeClient = nodeClient;
        this.warmCalls = warmCalls;
        this.inflightCalls = inflightCalls;
        this.connectRuns = connectRuns;
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(RemoteComparison.class, args, "rounds", "3", "warm-calls", "2000",
                "inflight-calls", "4000", "connect-runs", "10", "repo", ".");
        Path repo = opts.path("repo");
        Path everything = repo.resolve("meta-mcp/src/test/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        if (!Files.isRegularFile(everything)) {
            throw new IllegalStateException("server-everything is not installed at " + everything
                    + " (build meta-mcp first: it runs npm ci for its test peers)");
        }
        RemoteComparison bench = new RemoteComparison(everything, new NodeBench(repo.resolve("benchmarks/node")),
                opts.integer("warm-calls"), opts.integer("inflight-calls"), opts.integer("connect-runs"));
        bench.nodeClient.ensureNodeModules("@modelcontextprotocol/sdk");
        System.out.println(Rounds.machine());
        int port = Ports.free(1)[0];
        Process withPort = null;
        try {
            ProcessBuilder builder = new ProcessBuilder(bench.node, everything.toString(), "streamableHttp")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().put("PORT", String.valueOf(port));
            withPort = builder.start();
            Ports.await(port, 60);
            bench.url = URI.create("http://127.0.0.1:" + port + "/mcp");
            for (int round = 1; round <= opts.integer("rounds"); round++) {
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

    private void round(int round) throws Exception {
        Rounds.rotated(round, List.of(
                () -> rounds.record("a.warm.us", warm(remote())),
                () -> rounds.record("b.warm.us", tsClient("warm", warmCalls).get("usPerCall").asDouble()),
                () -> rounds.record("s.warm.us", warm(stdio()))));
        Rounds.rotated(round, List.of(
                () -> rounds.record("a.64.cps", inFlight(remote())),
                () -> rounds.record("b.64.cps", tsClient("inflight", inflightCalls).get("callsPerSecond").asDouble()),
                () -> rounds.record("s.64.cps", inFlight(stdio()))));
        Rounds.rotated(round, List.of(
                () -> rounds.record("a.connect.ms", connectRemote()),
                () -> rounds.record("b.connect.ms", tsClient("connect", connectRuns).get("msPerRun").asDouble()),
                () -> rounds.record("s.connect.ms", connectStdio())));
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
        return NodeBench.JSON.createObjectNode().put("message", message);
    }

    private static String check(JsonNode answer, String message) {
        return Timing.expect("Echo: " + message, answer.asText());
    }

    /** Sequential warm calls on one session; µs per call. */
    private double warm(McpConnection c) throws Exception {
        try (c) {
            return Timing.sequential(Math.min(warmCalls, WARMUP), warmCalls, text -> check(c.callTool("echo", echo(text), T), text));
        }
    }

    /** {@value Timing#IN_FLIGHT} calls kept in flight on one session; calls per second (a lost call fails the run). */
    private double inFlight(McpConnection c) throws Exception {
        try (c) {
            Timing.warmUp(WARMUP, text -> check(c.callTool("echo", echo(text), T), text));
            Timing.InFlight r = Timing.inFlight(inflightCalls,
                    i -> c.callToolAsync("echo", echo("c" + i), T).thenApply(answer -> check(answer, "c" + i)));
            if (r.lost() > 0) {
                throw new IllegalStateException(r.lost() + " calls lost, first: " + r.firstFailure());
            }
            return r.callsPerSecond();
        }
    }

    /** Connect, initialize, list tools, close (remote: the session ended with DELETE); ms per run. */
    private double connectRemote() throws Exception {
        return Timing.msPerRun(connectRuns,
                () -> McpProbe.probe(McpHttpEndpoint.of("remote", url), McpClientOptions.defaults(), T).connection().close(T));
    }

    /** Spawn, initialize, list tools, close (the stop ladder); ms per run. */
    private double connectStdio() throws Exception {
        return Timing.msPerRun(connectRuns, () -> McpProbe.probe(stdioSpec(), McpClientOptions.defaults(), T).connection().close(T));
    }

    private JsonNode tsClient(String mode, int count) throws IOException, InterruptedException {
        return nodeClient.run("remote-client.mjs", mode, count, url.toString());
    }

    private String table() {
        StringBuilder t = new StringBuilder();
        t.append("| path | (a) meta-mcp, HTTP | (b) TS SDK client, HTTP | (s) meta-mcp, stdio |\n|---|---:|---:|---:|\n");
        t.append(String.format(Locale.ROOT, "| warm `tools/call`, µs/call | %.1f | %.1f | %.1f |%n",
                rounds.median("a.warm.us"), rounds.median("b.warm.us"), rounds.median("s.warm.us")));
        t.append(String.format(Locale.ROOT, "| 64 in flight, calls/s (0 lost) | %,.0f | %,.0f | %,.0f |%n",
                rounds.median("a.64.cps"), rounds.median("b.64.cps"), rounds.median("s.64.cps")));
        t.append(String.format(Locale.ROOT, "| connect + initialize + list + close, ms | %.1f | %.1f | %.1f (spawn) |%n",
                rounds.median("a.connect.ms"), rounds.median("b.connect.ms"), rounds.median("s.connect.ms")));
        t.append("\n| ratio | value |\n|---|---:|\n");
        t.append(String.format(Locale.ROOT, "| warm (a) / (b) | %.2f |%n", rounds.ratio("a.warm.us", "b.warm.us")));
        t.append(String.format(Locale.ROOT, "| warm (a) / (s) | %.2f |%n", rounds.ratio("a.warm.us", "s.warm.us")));
        t.append(String.format(Locale.ROOT, "| 64 in flight (a) / (b) | %.2f |%n", rounds.ratio("a.64.cps", "b.64.cps")));
        t.append(String.format(Locale.ROOT, "| connect (a) / (b) | %.2f |%n", rounds.ratio("a.connect.ms", "b.connect.ms")));
        t.append(String.format(Locale.ROOT, "| connect (a) / spawn (s) | %.2f |%n", rounds.ratio("a.connect.ms", "s.connect.ms")));
        return t.toString();
    }
}
