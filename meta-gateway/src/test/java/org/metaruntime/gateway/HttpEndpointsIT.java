package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * {@code bin/meta-gateway --transport http} at the HTTP level: the token (401), the Origin check (403), bounded
 * bodies (413), the session header rules, idle expiry, DELETE, /healthz and /metrics, the command line's refusals;
 * and the TypeScript SDK client refused with a wrong token on both transports.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HttpEndpointsIT {

    static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
    static final String TOKEN = "s3cret-token-for-tests";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private List<String> args(String... more) throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        List<String> args = new java.util.ArrayList<>(List.of("--manifests", manifests.toString()));
        args.addAll(List.of(more));
        return args;
    }

    private HttpResponse<String> post(String url, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String url, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String session(HttpResponse<String> initialized) {
        return initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    @Test
    void aTokenIsNeededForEverythingButHealthzAndTheConsolePage() throws Exception {
        try (HttpGateway gateway = HttpGateway.start(args(), Map.of("META_GATEWAY_TOKEN", TOKEN))) {
            HttpResponse<String> none = post(gateway.url(), INIT);
            assertThat(none.statusCode()).isEqualTo(401);
            assertThat(none.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
            assertThat(post(gateway.url(), INIT, "Authorization", "Bearer wrong").statusCode()).isEqualTo(401);
            assertThat(post(gateway.url(), INIT, "Authorization", "Bearer " + TOKEN + "x").statusCode()).isEqualTo(401);
            assertThat(get(gateway.base() + "/metrics").statusCode()).isEqualTo(401);
            assertThat(get(gateway.base() + "/sse").statusCode()).isEqualTo(401);
            HttpResponse<String> page = get(gateway.base() + "/console");
            assertThat(page.statusCode()).as("the console's static page holds no data").isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Security-Policy").orElse("")).startsWith("default-src 'self'");
            assertThat(page.body()).contains("<script type=\"module\" src=\"/console/app.js\">").doesNotContain("<style");
            for (String file : List.of("app.js", "api.js", "dom.js", "chart.js", "console.css", "icon.svg")) {
                assertThat(get(gateway.base() + "/console/" + file).statusCode()).as(file).isEqualTo(200);
            }
            assertThat(get(gateway.base() + "/console/x/../../metrics").statusCode()).as("the canonical path is checked").isEqualTo(401);
            assertThat(get(gateway.base() + "/console/../mcp").statusCode()).isIn(400, 401, 404);
            assertThat(get(gateway.base() + "/console/api/pods").statusCode()).as("its data needs the token").isEqualTo(401);
            HttpResponse<String> pods = get(gateway.base() + "/console/api/pods", "Authorization", "Bearer " + TOKEN);
            assertThat(pods.statusCode()).isEqualTo(200);
            assertThat(NodeClient.JSON.readTree(pods.body()).at("/pods/0/state").asText()).isEqualTo("idle");
            HttpResponse<String> ok = post(gateway.url(), INIT, "Authorization", "Bearer " + TOKEN);
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(NodeClient.JSON.readTree(ok.body()).at("/result/serverInfo/name").asText()).isEqualTo("meta-gateway");
            HttpResponse<String> health = get(gateway.base() + "/healthz");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(get(gateway.base() + "/.well-known/oauth-protected-resource").statusCode()).as("no OAuth").isEqualTo(404);
            assertThat(get(gateway.base() + "/.well-known/oauth-protected-resource/mcp").statusCode()).isEqualTo(404);
            JsonNode body = NodeClient.JSON.readTree(health.body());
            assertThat(body.get("status").asText()).isEqualTo("ok");
            assertThat(body.at("/pods/fixture").asText()).isEqualTo("NotStarted");

            for (String transport : List.of("http", "sse")) {
                ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", transport)
                        .put("url", transport.equals("sse") ? gateway.base() + "/sse" : gateway.url());
                script.putObject("headers").put("Authorization", "Bearer nope");
                script.putArray("steps").add(NodeClient.step("listTools"));
                JsonNode refused = NodeClient.runRaw(script);
                assertThat(refused.at("/connectError/error").toString()).as(transport).contains("401");
                script.putObject("headers").put("Authorization", "Bearer " + TOKEN);
                JsonNode served = NodeClient.runRaw(script);
                assertThat(served.at("/steps/0/ok/tools/0/name").asText()).as(transport).isEqualTo("fixture__crash");
            }
            gateway.stopCleanly();
        }
    }

    @Test
    void aTokenFileServesAnotherHostAndWithoutATokenTheCommandRefuses() throws Exception {
        Repo.Run refused = Repo.gateway("--manifests", "examples/manifests", "--transport", "http", "--host", "0.0.0.0", "--port", "0");
        assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(2);
        assertThat(refused.stderr()).contains("--token-file").contains("usage: meta-gateway");
        Repo.Run empty = Repo.gateway("--manifests", "examples/manifests", "--transport", "http", "--token-file",
                Files.writeString(dir.resolve("empty"), "\n").toString());
        assertThat(empty.exitCode()).isEqualTo(2);
        Path tokenFile = Files.writeString(dir.resolve("token"), TOKEN + "\n");
        try (HttpGateway gateway = HttpGateway.start(args("--host", "0.0.0.0", "--token-file", tokenFile.toString()))) {
            assertThat(gateway.url()).startsWith("http://0.0.0.0:");
            String local = gateway.url().replace("0.0.0.0", "127.0.0.1");
            assertThat(post(local, INIT).statusCode()).isEqualTo(401);
            assertThat(post(local, INIT, "Authorization", "Bearer " + TOKEN).statusCode()).isEqualTo(200);
            gateway.stopCleanly();
        }
    }

    @Test
    void aPortInUseEndsTheCommandBeforeAnyPodStarts() throws Exception {
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "fixture", "live");
        Path fixture = manifests.resolve("fixture.yaml");
        Files.writeString(fixture, Files.readString(fixture).replace("  callTimeout:", "  preWarm: true\n  callTimeout:"));
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"))) {
            Repo.Run run = Repo.gateway("--manifests", manifests.toString(), "--transport", "http", "--port",
                    Integer.toString(taken.getLocalPort()), "--log-level", "debug");
            assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);
            assertThat(run.stderr()).contains("meta-gateway: cannot listen on 127.0.0.1:" + taken.getLocalPort());
            assertThat(run.stderr()).as("a pre-warmed pod and a pod listed live")
                    .doesNotContain("module 'fixture': starting").doesNotContain("module 'live': starting");
            try (java.util.stream.Stream<Path> spawned = Files.list(pids)) {
                assertThat(spawned).as("pods spawned").isEmpty();
            }
        }
    }

    @Test
    void idleHttpThreadsAreReclaimedSoonAfterABurst() throws Exception {
        try (HttpGateway gateway = HttpGateway.start(args(), HttpGateway.threadIdleTimeout("2s", false))) {
            String sid = session(post(gateway.url(), INIT));
            String sleep = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"fixture__sleep\",\"arguments\":{\"seconds\":1}}}";
            assertThat(post(gateway.url(), String.format(sleep, 2), "Mcp-Session-Id", sid).body()).contains("slept");
            assertThat(acceptQueue(gateway)).as("the listening socket's backlog: a burst of connections is queued, not reset")
                    .isGreaterThanOrEqualTo(Math.min(1024, Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/core/somaxconn")).get(0).strip())));
            double before = liveThreads(gateway);
            List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> burst = new java.util.ArrayList<>();
            for (int i = 0; i < 200; i++) {
                burst.add(http.sendAsync(HttpRequest.newBuilder(URI.create(gateway.url())).timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                        .header("Mcp-Session-Id", sid).POST(HttpRequest.BodyPublishers.ofString(String.format(sleep, 10 + i)))
                        .build(), HttpResponse.BodyHandlers.ofString()));
            }
            for (java.util.concurrent.CompletableFuture<HttpResponse<String>> answer : burst) {
                assertThat(answer.get(90, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            }
            // Idle threads end after 2 s without work (at most twice that for ones started late in the burst).
            await().atMost(Duration.ofSeconds(50)).pollInterval(Duration.ofMillis(250))
                    .until(() -> liveThreads(gateway) <= before + 8);
            gateway.stopCleanly();
        }
    }

    /** The backlog of the gateway's listening socket: the Send-Q that {@code ss} shows for a socket in LISTEN. */
    private static int acceptQueue(HttpGateway gateway) throws Exception {
        int port = URI.create(gateway.url()).getPort();
        Process ss = new ProcessBuilder(Repo.tool("ss"), "-ltnH", "sport = :" + port).redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ss.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String[] columns = out.strip().split("\\s+");
        assertThat(columns).as(out).hasSizeGreaterThan(3).startsWith("LISTEN");
        return Integer.parseInt(columns[2]);
    }

    private double liveThreads(HttpGateway gateway) throws Exception {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^jvm_threads_live_threads ([0-9.]+)$")
                .matcher(get(gateway.base() + "/metrics").body());
        assertThat(m.find()).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void aForeignOriginIsRefusedLoopbackAndAllowedOnesPass() throws Exception {
        try (HttpGateway gateway = HttpGateway.start(args("--allow-origin", "https://console.example.com"))) {
            HttpResponse<String> foreign = post(gateway.url(), INIT, "Origin", "http://evil.example");
            assertThat(foreign.statusCode()).isEqualTo(403);
            assertThat(foreign.body()).contains("origin http://evil.example is not allowed");
            assertThat(post(gateway.url(), INIT, "Origin", "http://127.0.0.1.evil.example:8080").statusCode()).isEqualTo(403);
            assertThat(post(gateway.url(), INIT, "Origin", "null").statusCode()).isEqualTo(403);
            assertThat(get(gateway.base() + "/sse", "Origin", "http://evil.example").statusCode()).isEqualTo(403);
            HttpResponse<String> loopback = post(gateway.url(), INIT, "Origin", "http://localhost:6274");
            assertThat(loopback.statusCode()).isEqualTo(200);
            assertThat(loopback.headers().firstValue("Access-Control-Allow-Origin")).hasValue("http://localhost:6274");
            assertThat(post(gateway.url(), INIT, "Origin", "https://console.example.com").statusCode()).isEqualTo(200);
            gateway.stopCleanly();
        }
    }

    @Test
    void anOversizedBodyIs413AndTheSessionKeepsServing() throws Exception {
        try (HttpGateway gateway = HttpGateway.start(args())) {
            String sid = session(post(gateway.url(), INIT));
            String big = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"fixture__echo\",\"arguments\":{\"text\":\""
                    + "x".repeat(5 * 1024 * 1024) + "\"}}}";
            HttpResponse<String> tooBig = post(gateway.url(), big, "Mcp-Session-Id", sid);
            assertThat(tooBig.statusCode()).isEqualTo(413);
            assertThat(tooBig.body()).contains("over 4194304 bytes");
            HttpResponse<String> echoed = post(gateway.url(), "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"fixture__echo\",\"arguments\":{\"text\":\"after\"}}}", "Mcp-Session-Id", sid);
            assertThat(echoed.statusCode()).isEqualTo(200);
            assertThat(NodeClient.JSON.readTree(echoed.body()).at("/result/content/0/text").asText()).isEqualTo("after");

            ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", gateway.url());
            ObjectNode call = NodeClient.step("call").put("name", "fixture__echo");
            call.putObject("arguments").put("text", "y".repeat(5 * 1024 * 1024));
            script.putArray("steps").add(call).add(NodeClient.call("fixture__echo", "{\"text\": \"still\"}"));
            JsonNode client = NodeClient.runRaw(script);
            assertThat(client.at("/steps/0/error").toString()).contains("413");
            assertThat(client.at("/steps/1/ok/content/0/text").asText()).isEqualTo("still");
            gateway.stopCleanly();
        }
    }

    @Test
    void sessionHeadersDeleteAndIdleExpiry() throws Exception {
        try (HttpGateway gateway = HttpGateway.start(args("--session-timeout", "1s"))) {
            String ping = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}";
            assertThat(post(gateway.url(), ping).statusCode()).as("no session header").isEqualTo(400);
            assertThat(post(gateway.url(), ping, "Mcp-Session-Id", "0123").statusCode()).as("unknown session").isEqualTo(404);
            String sid = session(post(gateway.url(), INIT));
            assertThat(post(gateway.url(), ping, "Mcp-Session-Id", sid, "MCP-Protocol-Version", "1999-01-01").statusCode()).isEqualTo(400);
            assertThat(post(gateway.url(), "not json", "Mcp-Session-Id", sid).statusCode()).isEqualTo(400);
            assertThat(post(gateway.url(), "[" + ping + "]", "Mcp-Session-Id", sid).statusCode()).isEqualTo(400);
            HttpResponse<String> pong = post(gateway.url(), ping, "Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25");
            assertThat(pong.statusCode()).isEqualTo(200);
            assertThat(pong.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}");
            assertThat(post(gateway.url(), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", "Mcp-Session-Id", sid)
                    .statusCode()).isEqualTo(202);
            HttpResponse<String> deleted = http.send(HttpRequest.newBuilder(URI.create(gateway.url())).header("Mcp-Session-Id", sid)
                    .DELETE().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(deleted.statusCode()).isEqualTo(200);
            assertThat(post(gateway.url(), ping, "Mcp-Session-Id", sid).statusCode()).isEqualTo(404);

            String idle = session(post(gateway.url(), INIT));
            // Any request would keep it alive: wait for the log line, then ask.
            await().atMost(Duration.ofSeconds(30)).until(() -> gateway.stderr().contains("session " + idle + " expired"));
            assertThat(post(gateway.url(), ping, "Mcp-Session-Id", idle).statusCode()).isEqualTo(404);
            gateway.stopCleanly();
        }
    }

    @Test
    void metricsCountCallsErrorsAndSessions() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture", "alpha");
        NodeClient.callTimeout(manifests.resolve("fixture.yaml"), "2s");
        try (HttpGateway gateway = HttpGateway.start(List.of("--manifests", manifests.toString()))) {
            String sid = session(post(gateway.url(), INIT));
            for (int i = 0; i < 3; i++) {
                post(gateway.url(), "{\"jsonrpc\":\"2.0\",\"id\":" + (10 + i) + ",\"method\":\"tools/call\",\"params\":"
                        + "{\"name\":\"fixture__echo\",\"arguments\":{\"text\":\"m\"}}}", "Mcp-Session-Id", sid);
            }
            HttpResponse<String> timedOut = post(gateway.url(), "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"fixture__sleep\",\"arguments\":{\"seconds\":20}}}", "Mcp-Session-Id", sid);
            assertThat(timedOut.body()).contains("-32001");
            // Refused before they reach a pod: they are errors all the same.
            String[] refused = {
                "{\"name\":\"fixture__echo\",\"arguments\":{\"text\":5}}",
                "{\"name\":\"fixture__echo\",\"arguments\":[1]}",
                "{\"name\":\"nobody__nothing\",\"arguments\":{}}",
                "{\"name\":\"alpha__call\",\"arguments\":{\"tool\":\"alpha.echo\",\"args\":{\"text\":7}}}",
                "{\"name\":\"alpha__call\",\"arguments\":{\"tool\":\"alpha.call\"}}"};
            for (int i = 0; i < refused.length; i++) {
                HttpResponse<String> answer = post(gateway.url(), "{\"jsonrpc\":\"2.0\",\"id\":" + (30 + i)
                        + ",\"method\":\"tools/call\",\"params\":" + refused[i] + "}", "Mcp-Session-Id", sid);
                assertThat(answer.statusCode()).isEqualTo(200);
            }
            HttpResponse<String> metrics = get(gateway.base() + "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
            String text = metrics.body();
            assertThat(text).as("three served, two refused")
                    .contains("meta_gateway_tool_calls_seconds_count{pod=\"fixture\",tool=\"echo\"} 5");
            assertThat(text).contains("meta_gateway_tool_calls_seconds_bucket{pod=\"fixture\",tool=\"echo\",le=");
            assertThat(text).contains("meta_gateway_tool_call_errors_total{code=\"-32001\",pod=\"fixture\",tool=\"sleep\"} 1");
            assertThat(text).contains("meta_gateway_tool_call_errors_total{code=\"-32602\",pod=\"fixture\",tool=\"echo\"} 2");
            assertThat(text).contains("meta_gateway_tool_call_errors_total{code=\"-32602\",pod=\"\",tool=\"\"} 1");
            assertThat(text).as("a pod-to-pod call with arguments that do not fit")
                    .contains("meta_gateway_tool_call_errors_total{code=\"-32602\",pod=\"alpha\",tool=\"echo\"} 1");
            assertThat(text).as("a pod-to-pod call that would close a cycle")
                    .contains("meta_gateway_tool_call_errors_total{code=\"-32004\",pod=\"alpha\",tool=\"call\"} 1");
            assertThat(text).contains("meta_gateway_sessions_open{transport=\"streamable-http\"} 1");
            assertThat(text).contains("meta_gateway_pods_running 2");
            assertThat(text).contains("meta_gateway_pod_restarts_total{pod=\"fixture\"} 0");
            // The OpenTelemetry MCP histogram: every request answered, by method, tool (when it resolved) and error type.
            String operations = "mcp_server_operation_duration_seconds_count";
            assertThat(text).contains(operations + "{error_type=\"\",gen_ai_tool_name=\"\",mcp_method_name=\"initialize\"} 1");
            assertThat(text).contains(operations + "{error_type=\"\",gen_ai_tool_name=\"fixture__echo\",mcp_method_name=\"tools/call\"} 3");
            assertThat(text).contains(operations + "{error_type=\"-32001\",gen_ai_tool_name=\"fixture__sleep\",mcp_method_name=\"tools/call\"} 1");
            assertThat(text).contains(operations + "{error_type=\"-32602\",gen_ai_tool_name=\"\",mcp_method_name=\"tools/call\"} 1");
            assertThat(text).contains("mcp_server_operation_duration_seconds_bucket{error_type=\"\",gen_ai_tool_name=\"fixture__echo\","
                    + "mcp_method_name=\"tools/call\",le=");
            JsonNode status = NodeClient.JSON.readTree(post(gateway.url(), "{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":"
                    + "\"tools/call\",\"params\":{\"name\":\"meta__status\"}}", "Mcp-Session-Id", sid).body())
                    .at("/result/structuredContent/pods/fixture");
            assertThat(status.get("callsFailed").asInt()).as("the timeout and the two refused calls").isEqualTo(3);
            gateway.stopCleanly();
        }
    }
}
