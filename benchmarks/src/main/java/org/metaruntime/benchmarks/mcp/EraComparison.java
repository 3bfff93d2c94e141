package org.metaruntime.benchmarks.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.metaruntime.benchmarks.harness.NodeBench;
import org.metaruntime.benchmarks.harness.Options;
import org.metaruntime.benchmarks.harness.Rounds;
import org.metaruntime.benchmarks.harness.Timing;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * A warm {@code tools/call} to the same server spoken to in each era of MCP: the TypeScript SDK v2 test server
 * ({@code meta-mcp/src/test/node/modern_server.mjs}, which serves both eras over stdio), once found modern by the
 * {@code server/discover} probe ({@code AUTO}) and once pinned {@code LEGACY} ({@code initialize}). One run,
 * interleaved: each round runs both, starting with a different one each round; the table gives the medians over
 * rounds and the median of the per-round ratios. Also the time to open each (spawn, probe or handshake).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.mcp.EraComparison [--rounds 7] [--warm-calls 5000]
 *      [--repo .]
 * </pre>
 */
public final class EraComparison {

    private static final Duration T = Duration.ofSeconds(60);
    private static final int WARMUP = 1000;

    private final String node;
    private final Path server;
    private final int warmCalls;
    private final Rounds rounds = new Rounds();

    private EraComparison(String node, Path server, int warmCalls) {
        this.node = node;
        this.server = server;
        this.warmCalls = warmCalls;
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(EraComparison.class, args, "rounds", "7", "warm-calls", "5000", "repo", ".");
        Path server = opts.path("repo").resolve("meta-mcp/src/test/node/modern_server.mjs").toAbsolutePath();
        if (!Files.isDirectory(server.resolveSibling("node_modules").resolve("@modelcontextprotocol").resolve("server"))) {
            throw new IllegalStateException("run `npm ci` in " + server.getParent() + " first (the meta-mcp build does)");
        }
        EraComparison bench = new EraComparison("node", server, opts.integer("warm-calls"));
        System.out.println(Rounds.machine());
        bench.rounds.runAndPrint(opts.integer("rounds"), round -> Rounds.rotated(round, List.of(
                () -> bench.warm("modern", McpProtocolEra.AUTO), () -> bench.warm("legacy", McpProtocolEra.LEGACY))),
                bench::table);
    }

    private void warm(String name, McpProtocolEra era) throws Exception {
        ProcessSpec spec = ProcessSpec.builder("bench").command(node, server.toString()).build();
        long start = System.nanoTime();
        McpConnection c = McpConnection.open(spec, McpClientOptions.builder().protocolEra(era).build(), T);
        rounds.record(name + ".open.ms", (System.nanoTime() - start) / 1e6);
        try {
            String expected = era == McpProtocolEra.LEGACY ? "2025-11-25" : "2026-07-28";
            if (!expected.equals(c.protocolVersion())) {
                throw new IllegalStateException(name + ": spoke " + c.protocolVersion());
            }
            c.listTools(T);
            rounds.record(name + ".warm.us", Timing.sequential(Math.min(warmCalls, WARMUP), warmCalls,
                    text -> Timing.expect(text, c.callTool("echo", args(text), T).textValue())));
        } finally {
            c.close(T);
        }
    }

    private static ObjectNode args(String text) {
        return NodeBench.JSON.createObjectNode().put("text", text);
    }

    private String table() {
        return String.format(Locale.ROOT, """
                | era | warm `tools/call`, µs/call (median) | open: spawn + probe or handshake, ms (median) |
                |---|---:|---:|
                | 2026-07-28 (AUTO, found by server/discover) | %.1f | %.1f |
                | 2025-11-25 (LEGACY, initialize) | %.1f | %.1f |

                warm modern / legacy (median of per-round ratios): %.3f""",
                rounds.median("modern.warm.us"), rounds.median("modern.open.ms"),
                rounds.median("legacy.warm.us"), rounds.median("legacy.open.ms"),
                rounds.ratio("modern.warm.us", "legacy.warm.us"));
    }
}
