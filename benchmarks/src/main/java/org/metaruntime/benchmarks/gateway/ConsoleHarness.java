package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.GatewayOptions;
import org.metaruntime.gateway.MetaGateway;
import org.metaruntime.gateway.Serving;

/**
 * The operator console's JSON endpoints under load of data: a gateway over HTTP with {@code P} pods of two declared
 * tools each (not started: idle) and {@code C} audited calls in its SQLite event log. Each endpoint is asked
 * {@code --rounds} times over one HTTP connection after as many warm-up requests; figures are the time to the full
 * answer (median, 95th percentile, worst), and the first answers right after the start: {@code me} (the HTTP server's
 * first request) then {@code calls}, while the gateway is still reading the audit's history in the background.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.ConsoleHarness [--pods 200] [--calls 10000]
 *     [--rounds 200]
 * </pre>
 */
public final class ConsoleHarness {

    private static final List<String> ENDPOINTS = List.of("me", "pods", "tools", "calls", "calls?pod=pod-7&outcome=error",
            "latency?pod=pod-7", "replicas");

    private ConsoleHarness() {
    }

    public static void main(String[] args) throws Exception {
        int pods = 200;
        int calls = 10_000;
        int rounds = 200;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--pods" -> pods = Integer.parseInt(args[++i]);
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory("console-harness");
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        for (int p = 0; p < pods; p++) {
            Files.writeString(manifests.resolve("pod-" + p + ".yaml"), """
                    apiVersion: mcp-meta/v1
                    kind: ToolPod
                    metadata: { name: pod-%d }
                    spec:
                      command: ["python3", "server.py"]
                      tools:
                        - name: echo
                          description: "Echoes text"
                          inputSchema: { type: object, properties: { text: { type: string } } }
                        - name: search
                          contract: { id: "bench.search", version: "1.0.0" }
                          inputSchema: { type: object, properties: { query: { type: string }, limit: { type: integer } } }
                    """.formatted(p));
        }
        try (EventLog log = EventLogs.persistentState(dir.resolve("state"))) {
            long now = System.currentTimeMillis();
            for (int c = 0; c < calls; c++) {
                String pod = "pod-" + (c % pods);
                ObjectNode payload = JsonNodeFactory.instance.objectNode().put("call_id", "c" + c).put("principal", "alice")
                        .put("auth", "tokens").put("profile", "all").put("tool", pod + "__echo").put("pod", pod)
                        .put("pod_tool", "echo").put("outcome", c % 10 == 0 ? "error" : "ok").put("duration_ms", c % 50)
                        .put("trace_id", Long.toHexString(c));
                log.append(EventEnvelope.module("evt-" + c, now - calls + c, pod, "gateway.call", payload));
            }
            log.flush(Duration.ofMinutes(1));
            try (MetaGateway gateway = MetaGateway.builder().manifests(manifests)
                    .options(GatewayOptions.builder().eventLog(log).build()).build();
                 Serving serving = gateway.serveHttp(new InetSocketAddress("127.0.0.1", 0))) {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                String base = "http://127.0.0.1:" + serving.port() + "/console/api/";
                System.out.printf(Locale.ROOT, "pods %d, audited calls %d, rounds %d%n", pods, calls, rounds);
                System.out.printf(Locale.ROOT, "first answer after the start (me): %.1f ms%n", millis(http, base + "me"));
                System.out.printf(Locale.ROOT, "first calls answer: %.1f ms%n", millis(http, base + "calls"));
                for (String endpoint : ENDPOINTS) {
                    double[] times = new double[rounds];
                    for (int i = 0; i < rounds; i++) {
                        millis(http, base + endpoint);
                    }
                    for (int i = 0; i < rounds; i++) {
                        times[i] = millis(http, base + endpoint);
                    }
                    Arrays.sort(times);
                    System.out.printf(Locale.ROOT, "%-32s median %6.2f ms  p95 %6.2f ms  max %6.2f ms  (%d bytes)%n", endpoint,
                            times[rounds / 2], times[(int) Math.ceil(rounds * 0.95) - 1], times[rounds - 1],
                            get(http, base + endpoint).length());
                }
            }
        }
    }

    private static double millis(HttpClient http, String url) throws Exception {
        long start = System.nanoTime();
        get(http, url);
        return (System.nanoTime() - start) / 1e6;
    }

    private static String get(HttpClient http, String url) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }
}
