package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.metaruntime.benchmarks.harness.NodeBench;
import org.metaruntime.benchmarks.harness.Options;
import org.metaruntime.benchmarks.harness.Rounds;

/**
 * The gateway against a direct connection: the same MCP TypeScript SDK client calls the same raw python MCP
 * server ({@code meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py}, tool {@code echo}) either directly or
 * through {@code meta-gateway} (stdio, the server declared in a manifest as a lazy pod). Cold: the direct client's
 * spawn + initialize + first call, against the first call to a lazy pod of a running gateway (which spawns and
 * initializes it), and against a whole gateway session started from nothing. The floor of any process in the
 * middle is {@code benchmarks/relay/relay.c}, which forwards bytes both ways on one thread and parses nothing
 * (built with gcc); the floor of one written in Java is {@link JvmRelay}, which parses each line into a Jackson tree
 * and writes it again, one thread per direction, on the same JVM as the gateway. One run, interleaved: every round runs every path, starting with a different one each round; the table gives the medians over
 * rounds and the median of the ratios measured within a round.
 *
 * <p>Both eras of MCP through the gateway: the TypeScript SDK v2 client ({@code @modelcontextprotocol/client})
 * pinned to {@code 2026-07-28} (modern: {@code server/discover}, no session) and pinned to {@code 2025-11-25} (legacy:
 * {@code initialize}) make the same warm calls to the same pod, and connect to a gateway started for each connect
 * (spawn + JVM start + the era's handshake); and in one session of raw JSON-RPC lines, after {@code initialize},
 * calls of both eras alternate in blocks on the same pipe (the gateway's own share, the same JVM and JIT state for
 * both). The same warm calls of both eras (and of the SDK 1.x client) also go to one {@code meta-gateway --transport
 * http} serving the same pod, over Streamable HTTP (the modern client sends {@code server/discover} and then each call
 * as its own POST without a session; the legacy ones open a session with {@code initialize}). {@code --eras-only true}
 * runs only these; {@code --floor-only true} runs only the paths against the floors, and {@code --in-flight N} sets how
 * many calls their in-flight measure keeps outstanding (64 by default).
 *
 * <pre>
 * mvn -B -q -pl meta-gateway,benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.GatewayComparison [--rounds 5]
 *      [--warm-calls 5000] [--inflight-calls 10000] [--cold-runs 5] [--eras-only false]
 *      [--floor-only false] [--in-flight 64] [--repo .]
 * </pre>
 */
public final class GatewayComparison {

    private static final ObjectMapper JSON = NodeBench.JSON;

    private final NodeBench bench;
    private final Rounds rounds = new Rounds();
    private final String directSpec;
    private final String gatewaySpec;
    private final String relaySpec;
    private final String jvmRelaySpec;
    private final String lazySpec;
    private final String modernSpec;
    private final String legacyV2Spec;
    private final String httpSpec;
    private final String modernHttpSpec;
    private final String legacyV2HttpSpec;
    private final boolean erasOnly;
    private final boolean floorOnly;
    private final int inFlight;
    private final int warmCalls;
    private final int inflightCalls;
    private final int coldRuns;

    private GatewayComparison(Path nodeDir, String directSpec, String gatewaySpec, String relaySpec, String jvmRelaySpec,
                              String lazySpec, String httpSpec, int warmCalls, int inflightCalls, int coldRuns,
                              boolean erasOnly, boolean floorOnly, int inFlight) {
        this.bench = new NodeBench(nodeDir);
        this.directSpec = directSpec;
        this.gatewaySpec = gatewaySpec;
        this.relaySpec = relaySpec;
        this.jvmRelaySpec = jvmRelaySpec;
        this.lazySpec = lazySpec;
        this.warmCalls = warmCalls;
        this.inflightCalls = inflightCalls;
        this.coldRuns = coldRuns;
        this.erasOnly = erasOnly;
        this.floorOnly = floorOnly;
        this.inFlight = inFlight;
        this.modernSpec = pinned(gatewaySpec, "2026-07-28");
        this.legacyV2Spec = pinned(gatewaySpec, "2025-11-25");
        this.httpSpec = httpSpec;
        this.modernHttpSpec = pinned(httpSpec, "2026-07-28");
        this.legacyV2HttpSpec = pinned(httpSpec, "2025-11-25");
    }

    /** {@code spec} for the TypeScript SDK v2 client pinned to {@code version}. */
    private static String pinned(String spec, String version) {
        try {
            return ((ObjectNode) JSON.readTree(spec)).put("pin", version).toString();
        } catch (IOException e) {
            throw new IllegalArgumentException(spec, e);
        }
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(GatewayComparison.class, args, "rounds", "5", "warm-calls", "5000",
                "inflight-calls", "10000", "cold-runs", "5", "eras-only", "false", "floor-only", "false", "in-flight", "64",
                "repo", ".");
        Path repo = opts.path("repo");
        Path jar = GatewayHttpComparison.gatewayJar(repo);
        String python = NodeBench.realPython();
        Path server = repo.resolve("meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py");
        int coldRuns = opts.integer("cold-runs");
        Path manifests = Files.createTempDirectory("gateway-bench");
        Path lazyManifests = Files.createTempDirectory("gateway-bench-lazy");
        writePod(manifests, "py", python, server, false);
        ObjectNode lazy = JSON.createObjectNode().put("tool", "unused");
        for (int i = 0; i <= coldRuns; i++) {
            writePod(lazyManifests, "py" + i, python, server, false);
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
        ObjectNode relay = JSON.createObjectNode().put("command", buildRelay(repo).toString()).put("tool", "echo");
        relay.putArray("args").add(python).add(server.toString());
        ObjectNode jvmRelay = JSON.createObjectNode().put("command", java).put("tool", "echo");
        jvmRelay.putArray("args").add("-cp").add(Path.of(System.getProperty("java.class.path")).toAbsolutePath().toString()).add(JvmRelay.class.getName())
                .add(python).add(server.toString());
        List<Process> servers = new CopyOnWriteArrayList<>();
        Thread stopServers = new Thread(() -> GatewayHttpComparison.stop(servers), "bench-stop-servers");
        Runtime.getRuntime().addShutdownHook(stopServers);
        try {
            Process httpGateway = GatewayHttpComparison.start(servers, List.of(java, "-jar", jar.toString(), "--manifests",
                    manifests.toString(), "--transport", "http", "--port", "0", "--log-level", "warn"));
            String url = GatewayHttpComparison.awaitLine(httpGateway, GatewayHttpComparison.READY, 120);
            ObjectNode http = JSON.createObjectNode().put("url", url).put("transport", "http").put("tool", "py__echo");
            GatewayComparison bench = new GatewayComparison(repo.resolve("benchmarks/node"), direct.toString(),
                    gateway.toString(), relay.toString(), jvmRelay.toString(), lazy.toString(), http.toString(),
                    opts.integer("warm-calls"), opts.integer("inflight-calls"), coldRuns,
                    Boolean.parseBoolean(opts.value("eras-only")), Boolean.parseBoolean(opts.value("floor-only")),
                    opts.integer("in-flight"));
            bench.bench.ensureNodeModules("@modelcontextprotocol/sdk");
            bench.bench.ensureNodeModules("@modelcontextprotocol/client");
            System.out.println("python: " + python + ", " + Rounds.machine());
            bench.rounds.runAndPrint(opts.integer("rounds"), bench::round, bench::table);
        } finally {
            GatewayHttpComparison.stop(servers);
            Runtime.getRuntime().removeShutdownHook(stopServers);
        }
    }

    /** Compiles {@code benchmarks/relay/relay.c} (the floor of a process in the middle) with gcc. */
    private static Path buildRelay(Path repo) throws IOException, InterruptedException {
        Path binary = Files.createTempDirectory("gateway-bench-relay").resolve("relay");
        Process gcc = new ProcessBuilder("gcc", "-O2", "-o", binary.toString(),
                repo.resolve("benchmarks/relay/relay.c").toString()).inheritIO().start();
        if (gcc.waitFor() != 0) {
            throw new IllegalStateException("gcc could not build benchmarks/relay/relay.c");
        }
        return binary;
    }

    /** Declares the python server (tool {@code echo}) as the pod {@code name} in {@code folder}. */
    static void writePod(Path folder, String name, String python, Path server, boolean preWarm) throws IOException {
        Files.writeString(folder.resolve(name + ".yaml"), "apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata: { name: " + name + " }\n"
                + "spec:\n  command: [\"" + python + "\", \"" + server + "\"]\n" + (preWarm ? "  preWarm: true\n" : "")
                + "  tools:\n    - name: echo\n"
                + "      inputSchema: { type: object, required: [text], properties: { text: { type: string } } }\n");
    }

    private void round(int round) throws Exception {
        if (!floorOnly) {
            erasRound(round);
        }
        if (!erasOnly) {
            floorRound(round);
        }
    }

    private void erasRound(int round) throws Exception {
        Rounds.rotated(round, List.of(
                () -> rounds.record("modern.warm.us", node("warm", modernSpec, warmCalls).get("usPerCall").asDouble()),
                () -> rounds.record("legacy2.warm.us", node("warm", legacyV2Spec, warmCalls).get("usPerCall").asDouble()),
                () -> rounds.record("sdk1.warm.us", node("warm", gatewaySpec, warmCalls).get("usPerCall").asDouble())));
        Rounds.rotated(round, List.of(
                () -> rounds.record("modern.http.warm.us", node("warm", modernHttpSpec, warmCalls).get("usPerCall").asDouble()),
                () -> rounds.record("legacy2.http.warm.us", node("warm", legacyV2HttpSpec, warmCalls).get("usPerCall").asDouble()),
                () -> rounds.record("sdk1.http.warm.us", node("warm", httpSpec, warmCalls).get("usPerCall").asDouble())));
        JsonNode mixed = node("mixed", gatewaySpec, warmCalls);
        rounds.record("mixed.legacy.us", mixed.get("legacyUsPerCall").asDouble());
        rounds.record("mixed.modern.us", mixed.get("modernUsPerCall").asDouble());
        rounds.record("mixed.ratio", mixed.get("ratio").asDouble());
        Rounds.rotated(round, List.of(
                () -> rounds.record("modern.connect.ms", node("connect", modernSpec, coldRuns).get("connectMs").asDouble()),
                () -> rounds.record("legacy2.connect.ms", node("connect", legacyV2Spec, coldRuns).get("connectMs").asDouble()),
                () -> rounds.record("legacy.connect.ms", node("connect", gatewaySpec, coldRuns).get("connectMs").asDouble())));
        Rounds.rotated(round, List.of(
                () -> rounds.record("modern.cold.ms", node("cold", modernSpec, coldRuns).get("wholeMs").asDouble()),
                () -> rounds.record("legacy2.cold.ms", node("cold", legacyV2Spec, coldRuns).get("wholeMs").asDouble()),
                () -> rounds.record("sdk1.cold.ms", node("cold", gatewaySpec, coldRuns).get("wholeMs").asDouble())));
    }

    private void floorRound(int round) throws Exception {
        Rounds.rotated(round, List.of(
                () -> rounds.record("direct.warm.us", node("warm", directSpec, warmCalls).get("usPerCall").asDouble()),
                () -> rounds.record("gateway.warm.us", node("warm", gatewaySpec, warmCalls).get("usPerCall").asDouble()),
                () -> rounds.record("relay.warm.us", node("warm", relaySpec, warmCalls).get("usPerCall").asDouble()),
                () -> rounds.record("jvmrelay.warm.us", node("warm", jvmRelaySpec, warmCalls).get("usPerCall").asDouble())));
        Rounds.rotated(round, List.of(() -> inflight("direct", directSpec), () -> inflight("gateway", gatewaySpec),
                () -> inflight("relay", relaySpec), () -> inflight("jvmrelay", jvmRelaySpec)));
        Rounds.rotated(round, List.of(
                () -> rounds.record("direct.cold.ms", node("cold", directSpec, coldRuns).get("wholeMs").asDouble()),
                () -> rounds.record("gateway.lazy.ms", node("lazy", lazySpec, coldRuns).get("firstCallMs").asDouble()),
                () -> rounds.record("gateway.whole.ms", node("cold", gatewaySpec, coldRuns).get("wholeMs").asDouble())));
    }

    /** {@code inFlight} calls kept in flight on {@code spec}'s path, recorded as {@code <path>.inflight.cps} and {@code .lost}. */
    private void inflight(String path, String spec) throws IOException, InterruptedException {
        JsonNode r = bench.run("gateway-bench.mjs", "inflight", inflightCalls, inFlight, spec);
        rounds.record(path + ".inflight.cps", r.get("callsPerSecond").asDouble());
        rounds.record(path + ".inflight.lost", r.get("lost").asDouble());
    }

    private JsonNode node(String mode, String spec, int count) throws IOException, InterruptedException {
        return bench.run("gateway-bench.mjs", mode, count, spec);
    }

    private String table() {
        StringBuilder t = new StringBuilder();
        if (!floorOnly) {
            erasTable(t);
        }
        if (!erasOnly) {
            floorTable(t);
        }
        return t.toString();
    }

    private void erasTable(StringBuilder t) {
        t.append("| through meta-gateway (stdio unless named) | SDK v2 pinned 2026-07-28 | SDK v2 pinned 2025-11-25 | modern / legacy | SDK 1.x (2025-11-25) | modern / SDK 1.x |\n");
        t.append("|---|---:|---:|---:|---:|---:|\n");
        t.append(String.format(Locale.ROOT, "| warm sequential `tools/call`, µs/call | %.1f | %.1f | %.3f | %.1f | %.3f |%n",
                rounds.median("modern.warm.us"), rounds.median("legacy2.warm.us"), rounds.ratio("modern.warm.us", "legacy2.warm.us"),
                rounds.median("sdk1.warm.us"), rounds.ratio("modern.warm.us", "sdk1.warm.us")));
        t.append(String.format(Locale.ROOT, "| warm `tools/call` in one session, eras alternating in blocks (raw JSON-RPC lines), µs/call | %.1f | %.1f | %.3f | | |%n",
                rounds.median("mixed.modern.us"), rounds.median("mixed.legacy.us"), rounds.median("mixed.ratio")));
        t.append(String.format(Locale.ROOT, "| warm sequential `tools/call` over Streamable HTTP (`--transport http`), µs/call | %.1f | %.1f | %.3f | %.1f | %.3f |%n",
                rounds.median("modern.http.warm.us"), rounds.median("legacy2.http.warm.us"),
                rounds.ratio("modern.http.warm.us", "legacy2.http.warm.us"), rounds.median("sdk1.http.warm.us"),
                rounds.ratio("modern.http.warm.us", "sdk1.http.warm.us")));
        t.append(String.format(Locale.ROOT, "| connect (spawn + JVM start + handshake), ms | %.1f | %.1f | %.3f | %.1f | %.3f |%n",
                rounds.median("modern.connect.ms"), rounds.median("legacy2.connect.ms"),
                rounds.ratio("modern.connect.ms", "legacy2.connect.ms"), rounds.median("legacy.connect.ms"),
                rounds.ratio("modern.connect.ms", "legacy.connect.ms")));
        t.append(String.format(Locale.ROOT, "| connect + first `tools/call`, ms | %.1f | %.1f | %.3f | %.1f | %.3f |%n%n",
                rounds.median("modern.cold.ms"), rounds.median("legacy2.cold.ms"),
                rounds.ratio("modern.cold.ms", "legacy2.cold.ms"), rounds.median("sdk1.cold.ms"),
                rounds.ratio("modern.cold.ms", "sdk1.cold.ms")));
    }

    private void floorTable(StringBuilder t) {
        t.append("| path | direct (TS client → python server) | byte relay (C) | JVM relay (parses each line) | meta-gateway | gateway / direct | gateway / byte relay | gateway / JVM relay | JVM relay / byte relay |\n");
        t.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        t.append(String.format(Locale.ROOT, "| warm sequential `tools/call`, µs/call | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f |%n",
                rounds.median("direct.warm.us"), rounds.median("relay.warm.us"), rounds.median("jvmrelay.warm.us"),
                rounds.median("gateway.warm.us"), rounds.ratio("gateway.warm.us", "direct.warm.us"),
                rounds.ratio("gateway.warm.us", "relay.warm.us"), rounds.ratio("gateway.warm.us", "jvmrelay.warm.us"),
                rounds.ratio("jvmrelay.warm.us", "relay.warm.us")));
        t.append(String.format(Locale.ROOT, "| %d in flight, calls/s (lost calls) | %,.0f (%.0f) | %,.0f (%.0f) | %,.0f (%.0f) | %,.0f (%.0f) | %.2f | %.2f | %.2f | %.2f |%n",
                inFlight, rounds.median("direct.inflight.cps"), rounds.sum("direct.inflight.lost"), rounds.median("relay.inflight.cps"), rounds.sum("relay.inflight.lost"),
                rounds.median("jvmrelay.inflight.cps"), rounds.sum("jvmrelay.inflight.lost"), rounds.median("gateway.inflight.cps"),
                rounds.sum("gateway.inflight.lost"), rounds.ratio("gateway.inflight.cps", "direct.inflight.cps"),
                rounds.ratio("gateway.inflight.cps", "relay.inflight.cps"), rounds.ratio("gateway.inflight.cps", "jvmrelay.inflight.cps"),
                rounds.ratio("jvmrelay.inflight.cps", "relay.inflight.cps")));
        t.append(String.format(Locale.ROOT, "| cold: direct spawn + initialize + call vs the gateway's first call to a lazy pod, ms | %.1f | | | %.1f | %.2f | | | |%n",
                rounds.median("direct.cold.ms"), rounds.median("gateway.lazy.ms"), rounds.ratio("gateway.lazy.ms", "direct.cold.ms")));
        t.append(String.format(Locale.ROOT, "| (a whole session: gateway JVM start + initialize + first call, ms) | | | | %.1f | %.2f | | | |%n",
                rounds.median("gateway.whole.ms"), rounds.ratio("gateway.whole.ms", "direct.cold.ms")));
    }
}
