package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.metaruntime.benchmarks.harness.NodeBench;
import org.metaruntime.benchmarks.harness.Options;
import org.metaruntime.benchmarks.harness.Ports;
import org.metaruntime.benchmarks.harness.Rounds;

/**
 * Gateways over HTTP: the same client calls the same raw python MCP server
 * ({@code meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py}, tool {@code echo}) through {@code meta-gateway
 * --transport http} (Streamable HTTP at {@code /mcp}, and HTTP+SSE at {@code /sse}), through {@code supergateway}
 * 4.0.0 ({@code --stateful --outputTransport streamableHttp}, a stdio-to-Streamable-HTTP bridge) and through
 * {@code mcp-hub} 4.2.1 (an aggregator of stdio servers whose endpoint speaks HTTP+SSE only), with the direct
 * stdio connection as the baseline, and {@code benchmarks/node/floor-server.mjs} (a Streamable HTTP server that
 * does no work and answers each call at once) as the floor: the least any server can cost that client. {@link HttpJvmRelay}
 * (Jetty in front of the python server, parsing each message and nothing more) is the floor of a gateway written in
 * Java: what the JVM, Jetty, JSON and the server's stdio round trip cost before any gateway work.
 *
 * <p>Two clients take every HTTP path: the MCP TypeScript SDK client ({@code gateway-bench.mjs}), the client the
 * targets are about, which takes the direct path too; and {@code lean-client.mjs}, node's
 * {@code http} module on a keep-alive agent with the least JSON-RPC a session needs, which costs much less per call
 * than the SDK client, so its table shows more of what each server costs itself.
 *
 * <p>Each server runs for the whole run; every round measures warm sequential calls and 64 calls in flight for
 * each client on each of its paths, in a rotated order; the tables give medians over rounds and the medians of
 * ratios taken within a round.
 *
 * <p>{@code --before-jar} names another build of the gateway jar (a copy kept from before a change): it runs beside
 * the repository's, on both of its transports, so that a change is measured against the build before it in the same
 * run (none: {@code -}). {@code --clients} names the clients to run ({@code ts,lean}, both by default). For the
 * gateway's own routes the tables also give the gateway process's CPU time per call (warm-up calls included, the
 * system's clock ticks), which a loaded machine disturbs less than the wall clock.
 *
 * <pre>
 * mvn -B -q -pl meta-gateway,benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.GatewayHttpComparison [--rounds 5]
 *      [--warm-calls 3000] [--inflight-calls 10000] [--repo .] [--before-jar -]
 *      [--clients ts,lean]
 * </pre>
 */
public final class GatewayHttpComparison {

    static final Pattern READY = Pattern.compile("meta-gateway listening on (http://\\S+/mcp)");
    private static final Pattern READY_RELAY = Pattern.compile("listening on (http://\\S+/mcp)");
    private static final Pattern PORT = Pattern.compile("^(\\d+)$");
    private static final List<Route> ROUTES = List.of(
            new Route("direct", "direct (stdio, no gateway)", false),
            new Route("floor", "no server work (client floor)", true),
            new Route("meta-gateway", "meta-gateway, Streamable HTTP", true),
            new Route("meta-gateway-sse", "meta-gateway, HTTP+SSE", true),
            new Route("jvm-relay", "JVM relay (Jetty, parses each message, no gateway work), Streamable HTTP", true),
            new Route("supergateway", "supergateway 4.0.0, Streamable HTTP (stateful)", true),
            new Route("mcp-hub", "mcp-hub 4.2.1, HTTP+SSE", true));
    /** The routes through the build given by {@code --before-jar}. */
    private static final List<Route> BEFORE_ROUTES = List.of(
            new Route("before", "meta-gateway before, Streamable HTTP", true),
            new Route("before-sse", "meta-gateway before, HTTP+SSE", true));
    private static final List<String> PEERS = List.of("supergateway", "mcp-hub");
    private static final List<Client> CLIENTS = List.of(
            new Client("ts", "gateway-bench.mjs", "TS client", "direct", true),
            new Client("lean", "lean-client.mjs", "lean client", "floor", false));

    /** One way from a client to the python server (or, for {@code floor}, to a server that does no work). */
    private record Route(String name, String label, boolean overHttp) {
    }

    /**
     * A client script of {@code benchmarks/node}, whether it takes the stdio route too, and the route its table
     * divides by; a key of {@link Rounds} is {@code <client>.<route>.<figure>}.
     */
    private record Client(String name, String script, String label, String baseline, boolean overStdio) {

        boolean takes(Route route) {
            return route.overHttp() || overStdio;
        }

        String key(String route, String figure) {
            return name + "." + route + "." + figure;
        }
    }

    private final NodeBench bench;
    private final Rounds rounds = new Rounds();
    private final Map<String, String> specs;
    private final List<Route> routes;
    private final List<Client> clients;
    /** The gateway process behind each of its routes. */
    private final Map<String, ProcessHandle> gateways;
    private final int warmupCalls = Integer.parseInt(System.getenv().getOrDefault("BENCH_WARMUP_CALLS", "2000"));
    private final int warmCalls;
    private final int inflightCalls;

    private GatewayHttpComparison(NodeBench bench, Map<String, String> specs, List<Route> routes, List<Client> clients,
                                  Map<String, ProcessHandle> gateways, int warmCalls, int inflightCalls) {
        this.bench = bench;
        this.gateways = gateways;
        this.specs = specs;
        this.routes = routes;
        this.clients = clients;
        this.warmCalls = warmCalls;
        this.inflightCalls = inflightCalls;
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(GatewayHttpComparison.class, args, "rounds", "5", "warm-calls", "3000",
                "inflight-calls", "10000", "repo", ".", "before-jar", "-", "clients", "ts,lean");
        List<String> clientNames = List.of(opts.value("clients").split(","));
        List<Client> clients = CLIENTS.stream().filter(c -> clientNames.contains(c.name())).toList();
        if (clients.isEmpty()) {
            throw new IllegalArgumentException("--clients names none of ts, lean");
        }
        Path repo = opts.path("repo");
        Path jar = gatewayJar(repo);
        Path beforeJar = opts.value("before-jar").equals("-") ? null : opts.path("before-jar");
        if (beforeJar != null && !Files.isRegularFile(beforeJar)) {
            throw new IllegalStateException("no gateway jar at " + beforeJar);
        }
        NodeBench bench = new NodeBench(repo.resolve("benchmarks/node"));
        bench.ensureNodeModules("supergateway");
        String python = NodeBench.realPython();
        Path server = repo.resolve("meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py");
        Path work = Files.createTempDirectory("gateway-http-bench");
        GatewayComparison.writePod(work, "py", python, server, true);
        Path hubConfig = Files.writeString(work.resolve("hub.json"), "{\"mcpServers\":{\"py\":{\"command\":\"" + python
                + "\",\"args\":[\"" + server + "\"]}}}");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path node = bench.dir().resolve("node_modules");
        int[] ports = Ports.free(2);
        int sgPort = ports[0];
        int hubPort = ports[1];
        List<Process> servers = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread stopServers = new Thread(() -> stop(servers), "bench-stop-servers");
        Runtime.getRuntime().addShutdownHook(stopServers);
        try {
            Process gateway = start(servers, List.of(java, "-jar", jar.toString(), "--manifests", work.toString(), "--transport",
                    "http", "--port", "0", "--log-level", "warn"));
            String url = awaitLine(gateway, READY, 120);
            Map<String, ProcessHandle> gateways = new LinkedHashMap<>();
            gateways.put("meta-gateway", gateway.toHandle());
            gateways.put("meta-gateway-sse", gateway.toHandle());
            String beforeUrl = null;
            if (beforeJar != null) {
                Process before = start(servers, List.of(java, "-jar", beforeJar.toString(), "--manifests", work.toString(),
                        "--transport", "http", "--port", "0", "--log-level", "warn"));
                beforeUrl = awaitLine(before, READY, 120);
                gateways.put("before", before.toHandle());
                gateways.put("before-sse", before.toHandle());
            }
            startLogged(servers, work.resolve("supergateway.log"), List.of("node", node.resolve("supergateway/dist/index.js").toString(), "--stdio",
                    python + " " + server, "--port", Integer.toString(sgPort), "--stateful", "--outputTransport", "streamableHttp"));
            Ports.await(sgPort, 120);
            Process hub = start(servers, List.of("node", node.resolve("mcp-hub/dist/cli.js").toString(), "--port",
                    Integer.toString(hubPort), "--config", hubConfig.toString()));
            awaitLine(hub, Pattern.compile("servers started successfully"), 120);
            Ports.await(hubPort, 120);
            Process floor = start(servers, List.of("node", bench.dir().resolve("floor-server.mjs").toString(), "0"));
            Process jvmRelay = start(servers, List.of(java, "-cp", Path.of(System.getProperty("java.class.path"))
                    .toAbsolutePath().toString(), HttpJvmRelay.class.getName(), python, server.toString()));
            String jvmRelayUrl = awaitLine(jvmRelay, READY_RELAY, 60);
            gateways.put("jvm-relay", jvmRelay.toHandle());
            String floorPort = awaitLine(floor, PORT, 60);
            Map<String, String> specs = new LinkedHashMap<>();
            ObjectNode direct = NodeBench.JSON.createObjectNode().put("command", python).put("tool", "echo");
            direct.putArray("args").add(server.toString());
            specs.put("direct", direct.toString());
            specs.put("floor", spec("http://127.0.0.1:" + floorPort + "/mcp", "http", "echo"));
            specs.put("meta-gateway", spec(url, "http", "py__echo"));
            specs.put("meta-gateway-sse", spec(url.replaceFirst("/mcp$", "/sse"), "sse", "py__echo"));
            specs.put("jvm-relay", spec(jvmRelayUrl, "http", "echo"));
            specs.put("supergateway", spec("http://127.0.0.1:" + sgPort + "/mcp", "http", "echo"));
            specs.put("mcp-hub", spec("http://127.0.0.1:" + hubPort + "/mcp", "sse", "py__echo"));
            List<Route> routes = new ArrayList<>(ROUTES);
            if (beforeUrl != null) {
                specs.put("before", spec(beforeUrl, "http", "py__echo"));
                specs.put("before-sse", spec(beforeUrl.replaceFirst("/mcp$", "/sse"), "sse", "py__echo"));
                routes.addAll(BEFORE_ROUTES);
            }
            GatewayHttpComparison comparison = new GatewayHttpComparison(bench, specs, routes, clients, gateways,
                    opts.integer("warm-calls"), opts.integer("inflight-calls"));
            System.out.println("python: " + python + ", " + Rounds.machine());
            comparison.rounds.runAndPrint(opts.integer("rounds"), comparison::round, comparison::report);
        } finally {
            stop(servers);
            Runtime.getRuntime().removeShutdownHook(stopServers);
        }
    }

    /** The gateway's jar in {@code repo}, which {@code mvn package} builds. */
    static Path gatewayJar(Path repo) {
        Path jar = repo.resolve("meta-gateway/target/meta-gateway.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the gateway first: mvn -B -q -pl meta-gateway -am package -DskipTests");
        }
        return jar;
    }

    /** Stops every server and what it spawned (SIGTERM, then SIGKILL after 10 s). */
    static void stop(List<Process> servers) {
        for (Process p : servers) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : servers) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static String spec(String url, String transport, String tool) {
        return NodeBench.JSON.createObjectNode().put("url", url).put("transport", transport).put("tool", tool).toString();
    }

    private void round(int round) throws Exception {
        List<Rounds.Step> warm = new ArrayList<>();
        List<Rounds.Step> inflight = new ArrayList<>();
        for (Client client : clients) {
            for (Route route : routes) {
                if (client.takes(route)) {
                    warm.add(() -> warm(client, route.name()));
                    inflight.add(() -> inflight(client, route.name()));
                }
            }
        }
        Rounds.rotated(round, warm);
        Rounds.rotated(round, inflight);
    }

    private void warm(Client client, String route) throws Exception {
        long cpu = cpuNanos(route);
        JsonNode r = run(client, route, "warm", warmCalls);
        rounds.record(client.key(route, "warm.us"), r.get("usPerCall").asDouble());
        recordCpu(client.key(route, "warm.cpu"), route, cpu, warmupCalls + warmCalls);
    }

    private void inflight(Client client, String route) throws Exception {
        long cpu = cpuNanos(route);
        JsonNode r = run(client, route, "inflight", inflightCalls);
        rounds.record(client.key(route, "64.cps"), r.get("callsPerSecond").asDouble());
        rounds.record(client.key(route, "64.lost"), r.get("lost").asDouble());
        recordCpu(client.key(route, "64.cpu"), route, cpu, warmupCalls + inflightCalls);
    }

    /** Runs {@code client} in {@code mode} on {@code route}; a failure names them. */
    private JsonNode run(Client client, String route, String mode, int calls) throws Exception {
        try {
            return bench.run(client.script(), mode, calls, specs.get(route));
        } catch (IllegalStateException e) {
            throw new IllegalStateException(client.label() + ", " + mode + " on " + route + ": " + e.getMessage(), e);
        }
    }

    /** The CPU time so far of the gateway behind {@code route}; -1 when it is not a gateway's route. */
    private long cpuNanos(String route) {
        ProcessHandle gateway = gateways.get(route);
        return gateway == null ? -1 : gateway.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
    }

    private void recordCpu(String key, String route, long before, int calls) {
        if (!gateways.containsKey(route)) {
            return;
        }
        long after = cpuNanos(route);
        rounds.record(key, before >= 0 && after >= 0 ? (after - before) / 1000.0 / calls : Double.NaN);
    }

    /** For each client: its table, then meta-gateway's ratios to the peers and to the floor. */
    private String report() {
        StringBuilder t = new StringBuilder();
        for (Client client : clients) {
            t.append(table(client)).append('\n').append(ratios(client)).append('\n');
        }
        return t.toString();
    }

    private String table(Client client) {
        String baseline = "× " + client.baseline();
        StringBuilder t = new StringBuilder();
        t.append("| path (").append(client.label()).append(" → … → python server) | warm `tools/call`, µs | ").append(baseline)
                .append(" | 64 in flight, calls/s (lost) | ").append(baseline)
                .append(" | gateway CPU per call, µs: warm, 64 in flight |\n");
        t.append("|---|---:|---:|---:|---:|---:|\n");
        for (Route route : routes) {
            if (!client.takes(route)) {
                continue;
            }
            String warm = client.key(route.name(), "warm.us");
            String cps = client.key(route.name(), "64.cps");
            String cpu = gateways.containsKey(route.name()) ? String.format(Locale.ROOT, "%.0f, %.0f",
                    rounds.median(client.key(route.name(), "warm.cpu")), rounds.median(client.key(route.name(), "64.cpu"))) : "–";
            t.append(String.format(Locale.ROOT, "| %s | %.0f | %.2f | %,.0f (%.0f) | %.3f | %s |%n", route.label(),
                    rounds.median(warm), rounds.ratio(warm, client.key(client.baseline(), "warm.us")),
                    rounds.median(cps), rounds.sum(client.key(route.name(), "64.lost")),
                    rounds.ratio(cps, client.key(client.baseline(), "64.cps")), cpu));
        }
        return t.toString();
    }

    private String ratios(Client client) {
        String warm = client.key("meta-gateway", "warm.us");
        String cps = client.key("meta-gateway", "64.cps");
        List<String> warmPeers = PEERS.stream().map(p -> client.key(p, "warm.us")).toList();
        List<String> cpsPeers = PEERS.stream().map(p -> client.key(p, "64.cps")).toList();
        String line = String.format(Locale.ROOT, "%s, meta-gateway (Streamable HTTP): warm latency / the faster peer's %.2f×, "
                        + "throughput / the better peer's %.2f×; warm latency / the floor's %.2f×, throughput / the floor's %.2f×%n",
                client.label(), rounds.ratioToBest(warm, warmPeers, true), rounds.ratioToBest(cps, cpsPeers, false),
                rounds.ratio(warm, client.key("floor", "warm.us")), rounds.ratio(cps, client.key("floor", "64.cps")));
        double floor = rounds.median(client.key("floor", "warm.us"));
        double bestPeer = PEERS.stream().mapToDouble(p -> rounds.median(client.key(p, "warm.us"))).min().orElse(Double.NaN);
        line += String.format(Locale.ROOT, "%s, added to the floor's warm latency: meta-gateway %.0f µs, the JVM relay %.0f µs, "
                        + "the faster peer %.0f µs (meta-gateway / the JVM relay: warm latency %.2f×, throughput %.2f×)%n",
                client.label(), rounds.median(warm) - floor, rounds.median(client.key("jvm-relay", "warm.us")) - floor,
                bestPeer - floor, rounds.ratio(warm, client.key("jvm-relay", "warm.us")),
                rounds.ratio(cps, client.key("jvm-relay", "64.cps")));
        if (!specs.containsKey("before")) {
            return line;
        }
        return line + String.format(Locale.ROOT, "%s, against the build before: Streamable HTTP warm latency %.2f×, throughput %.2f×, "
                        + "gateway CPU per call %.2f× warm, %.2f× in flight; HTTP+SSE warm latency %.2f×, throughput %.2f×, "
                        + "gateway CPU per call %.2f× warm, %.2f× in flight%n", client.label(),
                rounds.ratio(warm, client.key("before", "warm.us")), rounds.ratio(cps, client.key("before", "64.cps")),
                rounds.ratio(client.key("meta-gateway", "warm.cpu"), client.key("before", "warm.cpu")),
                rounds.ratio(client.key("meta-gateway", "64.cpu"), client.key("before", "64.cpu")),
                rounds.ratio(client.key("meta-gateway-sse", "warm.us"), client.key("before-sse", "warm.us")),
                rounds.ratio(client.key("meta-gateway-sse", "64.cps"), client.key("before-sse", "64.cps")),
                rounds.ratio(client.key("meta-gateway-sse", "warm.cpu"), client.key("before-sse", "warm.cpu")),
                rounds.ratio(client.key("meta-gateway-sse", "64.cpu"), client.key("before-sse", "64.cpu")));
    }

    static Process start(List<Process> servers, List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        servers.add(p);
        return p;
    }

    private static Process startLogged(List<Process> servers, Path log, List<String> command) throws IOException {
        // Its stdin stays open: supergateway exits when its stdin closes.
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        servers.add(p);
        return p;
    }

    /** Reads the process's output until a line matches; returns the first group (or the line); keeps draining it. */
    static String awaitLine(Process p, Pattern pattern, int seconds) throws Exception {
        CompletableFuture<String> found = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    Matcher m = pattern.matcher(line);
                    if (!found.isDone() && m.find()) {
                        found.complete(m.groupCount() > 0 ? m.group(1) : line);
                    }
                }
                found.completeExceptionally(new IllegalStateException("the server ended before it was ready"));
            } catch (IOException e) {
                found.completeExceptionally(e);
            }
        }, "bench-server-output");
        reader.setDaemon(true);
        reader.start();
        return found.get(seconds, TimeUnit.SECONDS);
    }
}
