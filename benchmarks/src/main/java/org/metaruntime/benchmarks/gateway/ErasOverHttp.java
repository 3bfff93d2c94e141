package org.metaruntime.benchmarks.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import org.metaruntime.benchmarks.harness.Options;
import org.metaruntime.benchmarks.harness.Rounds;

/**
 * The gateway's own cost of a 2026-07-28 call over Streamable HTTP against a 2025-11-25 one: one
 * {@code meta-gateway --transport http} serves the raw python MCP server of the comparison harnesses as a pod, and one
 * lean HTTP/1.1 client on a kept-alive connection ({@code java.net.http}) makes the same warm {@code tools/call} in
 * both eras, in blocks that alternate round by round: legacy calls on a session opened with {@code initialize},
 * modern calls each a request of its own with its {@code _meta} and {@code Mcp-Method}/{@code Mcp-Name} headers, no
 * session. Per call: the wall time, and the gateway process's CPU time ({@code /proc/PID/stat}). Prints the medians
 * over rounds and the median of the modern/legacy ratios measured within each round.
 *
 * <p>Run (after {@code mvn -B -pl meta-gateway,benchmarks -am package -DskipTests}):
 * {@code java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.ErasOverHttp --rounds 7 --calls 5000}
 */
public final class ErasOverHttp {

    private static final String MODERN_META = "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"bench\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private ErasOverHttp() {
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(ErasOverHttp.class, args, "rounds", "7", "calls", "5000", "repo", ".");
        Path repo = opts.path("repo").toAbsolutePath().normalize();
        Path manifests = Files.createTempDirectory("eras-http");
        Files.writeString(manifests.resolve("echo.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata:
                  name: echo
                spec:
                  command: ["python3", "%s"]
                """.formatted(repo.resolve("meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py")));
        List<Process> servers = new ArrayList<>();
        try {
            Process gateway = GatewayHttpComparison.start(servers, List.of(repo.resolve("bin/meta-gateway").toString(),
                    "--transport", "http", "--port", "0", "--manifests", manifests.toString()));
            URI mcp = URI.create(GatewayHttpComparison.awaitLine(gateway, GatewayHttpComparison.READY, 60));
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> init = post(http, mcp, """
                    {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",\
                    "capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}""", "Mcp-Method", "initialize");
            String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
            post(http, mcp, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", "Mcp-Session-Id", session,
                    "MCP-Protocol-Version", "2025-11-25");
            IntFunction<HttpResponse<String>> legacy = id -> post(http, mcp, """
                    {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo__echo",\
                    "arguments":{"text":"hi"}}}""".formatted(id), "Mcp-Session-Id", session,
                    "MCP-Protocol-Version", "2025-11-25");
            IntFunction<HttpResponse<String>> modern = id -> post(http, mcp, """
                    {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo__echo",\
                    "arguments":{"text":"hi"},"_meta":%s}}""".formatted(id, MODERN_META), "Mcp-Method", "tools/call",
                    "Mcp-Name", "echo__echo", "MCP-Protocol-Version", "2026-07-28");
            check(legacy.apply(1), false);
            check(modern.apply(1), true);
            int calls = opts.integer("calls");
            Rounds rounds = new Rounds();
            long pid = gateway.pid();
            for (int round = 0; round < opts.integer("rounds"); round++) {
                Rounds.rotated(round, List.of(
                        () -> measure(rounds, "legacy", legacy, calls, pid),
                        () -> measure(rounds, "modern", modern, calls, pid)));
                System.out.println("round " + round + ": " + rounds.lastRound());
            }
            System.out.printf(Locale.ROOT, "%-28s %10s %10s%n", "warm tools/call over HTTP", "wall µs", "CPU µs");
            for (String era : List.of("legacy", "modern")) {
                System.out.printf(Locale.ROOT, "%-28s %10.1f %10.1f%n", era, rounds.median(era + ".wall.us"),
                        rounds.median(era + ".cpu.us"));
            }
            System.out.printf(Locale.ROOT, "%-28s %10.3f %10.3f%n", "modern / legacy", rounds.ratio("modern.wall.us",
                    "legacy.wall.us"), rounds.ratio("modern.cpu.us", "legacy.cpu.us"));
        } finally {
            GatewayHttpComparison.stop(servers);
        }
    }

    /** Warms {@code call} up, then times {@code calls} of it: wall and gateway CPU per call. */
    private static void measure(Rounds rounds, String era, IntFunction<HttpResponse<String>> call, int calls, long pid)
            throws Exception {
        for (int i = 0; i < calls / 2; i++) {
            call.apply(i);
        }
        double cpu0 = cpuSeconds(pid);
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            call.apply(i);
        }
        double wallUs = (System.nanoTime() - t0) / 1e3 / calls;
        rounds.record(era + ".wall.us", wallUs);
        rounds.record(era + ".cpu.us", (cpuSeconds(pid) - cpu0) * 1e6 / calls);
    }

    private static void check(HttpResponse<String> answer, boolean modern) {
        if (answer.statusCode() != 200 || !answer.body().contains("\"text\":\"hi\"")
                || modern != answer.body().contains("resultType")) {
            throw new IllegalStateException("unexpected answer " + answer.statusCode() + " " + answer.body());
        }
    }

    private static HttpResponse<String> post(HttpClient http, URI uri, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream");
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The user + system CPU time of process {@code pid} so far. */
    private static double cpuSeconds(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0; // USER_HZ is 100 on Linux
    }
}
