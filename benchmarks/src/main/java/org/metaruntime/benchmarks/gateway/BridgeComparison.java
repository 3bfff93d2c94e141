package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.metaruntime.benchmarks.harness.NodeBench;
import org.metaruntime.benchmarks.harness.Options;
import org.metaruntime.benchmarks.harness.Rounds;
import org.metaruntime.benchmarks.harness.Timing;

/**
 * An elicitation round trip through the gateway's bridge against the direct path. A python MCP server
 * ({@code meta-gateway/src/test/resources/pods/asking_pod.py}, tool {@code ask}) asks its client for one elicitation
 * during each call. A client written here (raw JSON-RPC lines on the process's pipes, one call at a time) makes the
 * call in four ways: directly to the server (a 2025 session: the server's {@code elicitation/create} comes to the
 * client, which answers it); through {@code meta-gateway} over stdio as a 2025 client (the gateway passes the request
 * on); through the same gateway as a 2026-07-28 client (the call is answered {@code input_required}, the client
 * retries with the answer and the {@code requestState}); and, for scale, a 2026-07-28 call through the gateway that
 * asks nothing. One run, interleaved: every round runs every path, starting with a different one each round; the
 * table gives the medians over rounds and the median of the ratios measured within a round.
 *
 * <pre>
 * mvn -B -q -pl meta-gateway,benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.BridgeComparison [--rounds 3]
 *      [--warm-calls 2000] [--calls 2000] [--repo .]
 * </pre>
 */
public final class BridgeComparison {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ELICIT = "{\"rounds\":[[{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
            + "\"message\":\"Your name?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}}}]]}";
    private static final String ANSWER = "{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}";
    private static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{}}}";

    private final Rounds rounds = new Rounds();
    private final List<String> direct;
    private final List<String> gateway;
    private final int warmCalls;
    private final int calls;

    private BridgeComparison(List<String> direct, List<String> gateway, int warmCalls, int calls) {
        this.direct = direct;
        this.gateway = gateway;
        this.warmCalls = warmCalls;
        this.calls = calls;
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(BridgeComparison.class, args, "rounds", "3", "warm-calls", "2000", "calls", "2000", "repo", ".");
        Path repo = opts.path("repo").toAbsolutePath();
        Path jar = GatewayHttpComparison.gatewayJar(repo);
        String python = NodeBench.realPython();
        Path server = repo.resolve("meta-gateway/src/test/resources/pods/asking_pod.py");
        Path manifests = Files.createTempDirectory("bridge-bench");
        Files.writeString(manifests.resolve("asking.yaml"), "apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata: { name: asking }\n"
                + "spec:\n  command: [\"" + python + "\", \"" + server + "\"]\n  preWarm: true\n  tools:\n    - name: ask\n"
                + "      inputSchema: { type: object, properties: { rounds: { type: array } } }\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        BridgeComparison bench = new BridgeComparison(List.of(python, server.toString()),
                List.of(java, "-jar", jar.toString(), "--manifests", manifests.toString(), "--log-level", "warn"),
                opts.integer("warm-calls"), opts.integer("calls"));
        System.out.println("python: " + python + ", " + Rounds.machine());
        bench.rounds.runAndPrint(opts.integer("rounds"), bench::round, bench::table);
    }

    private void round(int round) throws Exception {
        Rounds.rotated(round, List.of(
                () -> rounds.record("direct.us", legacy(direct, "ask")),
                () -> rounds.record("legacy.us", legacy(gateway, "asking__ask")),
                () -> rounds.record("bridged.us", modern(ELICIT)),
                () -> rounds.record("plain.us", modern("{\"rounds\":[]}"))));
    }

    /** µs per call of a 2025 client that answers the server's elicitation itself. */
    private double legacy(List<String> command, String tool) throws Exception {
        try (Lines lines = new Lines(command)) {
            lines.send("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                    + "\"capabilities\":{\"elicitation\":{}},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}");
            lines.answer(0);
            lines.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            long[] ids = {0};
            return Timing.sequential(warmCalls, calls, tag -> {
                long id = ++ids[0];
                lines.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                        + "\",\"arguments\":" + ELICIT + "}}");
                JsonNode request = lines.next();
                if (!"elicitation/create".equals(request.path("method").asText())) {
                    throw new IllegalStateException("expected the server's elicitation, got " + request);
                }
                lines.send("{\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + ",\"result\":" + ANSWER + "}");
                expectResult(lines.answer(id));
            });
        }
    }

    /** µs per call of a 2026-07-28 client through the gateway: answered input_required, retried (when the call asks). */
    private double modern(String arguments) throws Exception {
        try (Lines lines = new Lines(gateway)) {
            long[] ids = {0};
            return Timing.sequential(warmCalls, calls, tag -> {
                long id = ++ids[0];
                lines.send(modernCall(id, arguments, ""));
                JsonNode answer = lines.answer(id);
                if ("input_required".equals(answer.at("/result/resultType").asText())) {
                    String key = answer.at("/result/inputRequests").fieldNames().next();
                    long retry = ++ids[0];
                    lines.send(modernCall(retry, arguments, "\"inputResponses\":{\"" + key + "\":" + ANSWER + "},\"requestState\":"
                            + answer.at("/result/requestState") + ","));
                    answer = lines.answer(retry);
                }
                expectResult(answer);
            });
        }
    }

    private static String modernCall(long id, String arguments, String extra) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"asking__ask\",\"arguments\":"
                + arguments + "," + extra + MODERN_META + "}}";
    }

    private static void expectResult(JsonNode answer) {
        if (!answer.has("result") || answer.at("/result/resultType").asText("complete").equals("input_required")) {
            throw new IllegalStateException("expected the tool's result, got " + answer);
        }
    }

    private String table() {
        StringBuilder t = new StringBuilder();
        t.append("| path (a call whose server asks one elicitation) | µs/call | / direct | / 2025 client through the gateway |\n");
        t.append("|---|---:|---:|---:|\n");
        t.append(String.format(Locale.ROOT, "| direct: 2025 client → python server | %.1f | 1.00 | |%n", rounds.median("direct.us")));
        t.append(String.format(Locale.ROOT, "| 2025 client → meta-gateway → python server | %.1f | %.2f | 1.00 |%n",
                rounds.median("legacy.us"), rounds.ratio("legacy.us", "direct.us")));
        t.append(String.format(Locale.ROOT, "| 2026-07-28 client → meta-gateway (input_required, retry) → python server | %.1f | %.2f | %.2f |%n",
                rounds.median("bridged.us"), rounds.ratio("bridged.us", "direct.us"), rounds.ratio("bridged.us", "legacy.us")));
        t.append(String.format(Locale.ROOT, "| (a 2026-07-28 call through the gateway that asks nothing) | %.1f | %.2f | %.2f |%n",
                rounds.median("plain.us"), rounds.ratio("plain.us", "direct.us"), rounds.ratio("plain.us", "legacy.us")));
        return t.toString();
    }

    /** A process spoken to in JSON-RPC lines on its pipes; its stderr is discarded. */
    private static final class Lines implements AutoCloseable {
        private final Process process;
        private final OutputStream in;
        private final BufferedReader out;

        Lines(List<String> command) throws IOException {
            this.process = new ProcessBuilder(new ArrayList<>(command)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            this.in = process.getOutputStream();
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        void send(String line) throws IOException {
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /** The next message that is not a notification. */
        JsonNode next() throws IOException {
            while (true) {
                String line = out.readLine();
                if (line == null) {
                    throw new IOException("the process closed its output");
                }
                JsonNode message = JSON.readTree(line);
                if (message.has("id")) {
                    return message;
                }
            }
        }

        /** The answer to request {@code id}. */
        JsonNode answer(long id) throws IOException {
            JsonNode message = next();
            if (message.has("method") || message.path("id").asLong(-1) != id) {
                throw new IllegalStateException("expected the answer to " + id + ", got " + message);
            }
            return message;
        }

        @Override
        public void close() throws InterruptedException, IOException {
            in.close();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
