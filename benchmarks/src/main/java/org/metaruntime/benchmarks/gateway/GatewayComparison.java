package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The gateway against a direct connection: the same MCP TypeScript SDK client calls the same raw python MCP
 * server ({@code meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py}, tool {@code echo}) either directly or
 * through {@code meta-gateway} (stdio, the server declared in a manifest as a lazy pod). Cold: the direct client's
 * spawn + initialize + first call, against the first call to a lazy pod of a running gateway (which spawns and
 * initializes it), and against a whole gateway session started from nothing. One run, interleaved:
 * every round runs both paths, starting with a different one each round; the table gives the medians over
 * rounds and the median of the ratios measured within a round.
 *
 * <pre>
 * mvn -B -q -pl meta-gateway,benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.GatewayComparison [--rounds 5]
 *      [--warm-calls 5000] [--inflight-calls 10000] [--cold-runs 5] [--repo .]
 * </pre>
 */
public final class GatewayComparison {

    private static final ObjectMapper JSON = NodeBench.JSON;

    private final NodeBench bench;
    private final Rounds rounds = new Rounds();
    private final String directSpec;
    private final String gatewaySpec;
    private final String lazySpec;
    private final int warmCalls;
    private final int inflightCalls;
    private final int coldRuns;

    private GatewayComparison(Path nodeDir, String directSpec, String gatewaySpec, String lazySpec, int warmCalls,
                              int inflightCalls, int coldRuns) {
        this.bench = new NodeBench(nodeDir);
        this.directSpec = directSpec;
        this.gatewaySpec = gatewaySpec;
        this.lazySpec = lazySpec;
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
        Path jar = repo.resolve("meta-gateway/target/meta-gateway.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the gateway first: mvn -B -q -pl meta-gateway -am package -DskipTests");
        }
        String python = NodeBench.realPython();
        Path server = repo.resolve("meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py");
        int coldRuns = Integer.parseInt(opts.getOrDefault("cold-runs", "5"));
        Path manifests = Files.createTempDirectory("gateway-bench");
        Path lazyManifests = Files.createTempDirectory("gateway-bench-lazy");
        writePod(manifests, "py", python, server);
        ObjectNode lazy = JSON.createObjectNode().put("tool", "unused");
        for (int i = 0; i <= coldRuns; i++) {
            writePod(lazyManifests, "py" + i, python, server);
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ObjectNode direct = JSON.createObjectNode().put("command", python).put("tool", "echo");
        direct.putArray("args").add(server.toString());
        ObjectNode gateway = JSON.createObjectNode().put("command", java).put("tool", "py__echo");
        gateway.putArray("args").add("-jar").add(jar.toString()).add("--manifests").add(manifests.toString())
                .add("--log-level").add("warn");
        lazy.put("command", java);
        lazy.putArray("args").add("-jar").add(jar.toString()).add("--manifests").add(lazyManifests.toString())
                .add("--log-level").add("warn");
        for (int i = 0; i <= coldRuns; i++) {
            lazy.withArray("tools").add("py" + i + "__echo");
        }
        GatewayComparison bench = new GatewayComparison(repo.resolve("benchmarks/node"), direct.toString(), gateway.toString(),
                lazy.toString(), Integer.parseInt(opts.getOrDefault("warm-calls", "5000")),
                Integer.parseInt(opts.getOrDefault("inflight-calls", "10000")), coldRuns);
        bench.bench.ensureNodeModules("@modelcontextprotocol/sdk");
        System.out.println("python: " + python + ", " + Runtime.getRuntime().availableProcessors() + " cores, "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "5"));
        for (int round = 1; round <= rounds; round++) {
            bench.round(round);
            System.out.println("round " + round + ": " + bench.rounds.lastRound());
        }
        System.out.println();
        System.out.println(bench.table());
    }

    private static void writePod(Path folder, String name, String python, Path server) throws IOException {
        Files.writeString(folder.resolve(name + ".yaml"), "apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata: { name: " + name + " }\n"
                + "spec:\n  command: [\"" + python + "\", \"" + server + "\"]\n  tools:\n    - name: echo\n"
                + "      inputSchema: { type: object, required: [text], properties: { text: { type: string } } }\n");
    }

    private void round(int round) throws Exception {
        Rounds.rotated(round, List.of(
                () -> record("direct.warm.us", node("warm", directSpec, warmCalls).get("usPerCall").asDouble()),
                () -> record("gateway.warm.us", node("warm", gatewaySpec, warmCalls).get("usPerCall").asDouble())));
        Rounds.rotated(round, List.of(
                () -> {
                    JsonNode r = node("inflight", directSpec, inflightCalls);
                    record("direct.64.cps", r.get("callsPerSecond").asDouble());
                    record("direct.64.lost", r.get("lost").asDouble());
                },
                () -> {
                    JsonNode r = node("inflight", gatewaySpec, inflightCalls);
                    record("gateway.64.cps", r.get("callsPerSecond").asDouble());
                    record("gateway.64.lost", r.get("lost").asDouble());
                }));
        Rounds.rotated(round, List.of(
                () -> record("direct.cold.ms", node("cold", directSpec, coldRuns).get("wholeMs").asDouble()),
                () -> record("gateway.lazy.ms", node("lazy", lazySpec, coldRuns).get("firstCallMs").asDouble()),
                () -> record("gateway.whole.ms", node("cold", gatewaySpec, coldRuns).get("wholeMs").asDouble())));
    }

    private JsonNode node(String mode, String spec, int count) throws IOException, InterruptedException {
        return bench.run(mode, spec, count);
    }

    private void record(String key, double value) {
        rounds.record(key, value);
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
        StringBuilder t = new StringBuilder();
        t.append("| path | direct (TS client → python server) | through meta-gateway (TS client → gateway → python server) | gateway / direct |\n");
        t.append("|---|---:|---:|---:|\n");
        t.append(String.format(Locale.ROOT, "| warm sequential `tools/call`, µs/call | %.1f | %.1f | %.2f |%n",
                median("direct.warm.us"), median("gateway.warm.us"), ratio("gateway.warm.us", "direct.warm.us")));
        t.append(String.format(Locale.ROOT, "| 64 in flight, calls/s (lost calls) | %,.0f (%.0f) | %,.0f (%.0f) | %.2f |%n",
                median("direct.64.cps"), sum("direct.64.lost"), median("gateway.64.cps"), sum("gateway.64.lost"),
                ratio("gateway.64.cps", "direct.64.cps")));
        t.append(String.format(Locale.ROOT, "| cold: direct spawn + initialize + call vs the gateway's first call to a lazy pod, ms | %.1f | %.1f | %.2f |%n",
                median("direct.cold.ms"), median("gateway.lazy.ms"), ratio("gateway.lazy.ms", "direct.cold.ms")));
        t.append(String.format(Locale.ROOT, "| (a whole session: gateway JVM start + initialize + first call, ms) | | %.1f | %.2f |%n",
                median("gateway.whole.ms"), ratio("gateway.whole.ms", "direct.cold.ms")));
        return t.toString();
    }
}
