package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * Requests of MCP 2026-07-28 over HTTP at the wire: the header rules ({@code MCP-Protocol-Version}, {@code Mcp-Method},
 * {@code Mcp-Name}, {@code Mcp-Param-*}: -32020), then version (-32022), envelope (-32602) and method (404), each
 * with its status; 405 for modern GET and DELETE; no session in either direction; the token first; cache scope private
 * when callers are authenticated. The declared pod is never spawned.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModernHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    private static final String TOKEN = "modern-token-for-tests";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private MetaGateway gateway;
    private Serving serving;

    private String url(HttpOptions options) throws Exception {
        Files.writeString(dir.resolve("tools.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: tools }
                spec:
                  command: ["python3", "-c", "raise SystemExit('never started by these tests')"]
                  tools:
                    - name: echo
                      inputSchema:
                        type: object
                        properties:
                          text: { type: string }
                          region: { type: string, x-mcp-header: Region }
                          options: { type: object, properties: { count: { type: integer, x-mcp-header: Count } } }
                """);
        gateway = MetaGateway.builder().manifests(dir).build();
        serving = gateway.serveHttp(new InetSocketAddress("127.0.0.1", 0), options);
        return "http://127.0.0.1:" + serving.port() + "/mcp";
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void stop() throws Exception {
        if (serving != null) {
            serving.close();
            assertThat(serving.awaitEnd(Duration.ofSeconds(20))).isTrue();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private HttpResponse<String> send(String url, String method, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json, text/event-stream")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url, String body, String... headers) throws Exception {
        return send(url, "POST", body, headers);
    }

    private static String request(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{"
                + (params.isEmpty() ? "" : params + ",") + META + "}}";
    }

    private static JsonNode body(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    private static String base64(String text) {
        return "=?base64?" + Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    @Test
    void discoverAndListsAreServedWithoutASession() throws Exception {
        String url = url(HttpOptions.defaults());
        HttpResponse<String> discover = post(url, request(1, "server/discover", ""), "MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "server/discover", "Mcp-Session-Id", "not-a-session-of-this-gateway");
        assertThat(discover.statusCode()).as(discover.body()).isEqualTo(200);
        assertThat(discover.headers().firstValue("Mcp-Session-Id")).isEmpty();
        assertThat(body(discover).at("/result/supportedVersions/0").asText()).isEqualTo("2026-07-28");
        assertThat(body(discover).at("/result/cacheScope").asText()).isEqualTo("public");
        HttpResponse<String> tools = post(url, request(2, "tools/list", ""), "MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "tools/list");
        assertThat(tools.statusCode()).isEqualTo(200);
        assertThat(tools.headers().firstValue("Mcp-Session-Id")).isEmpty();
        JsonNode result = body(tools).get("result");
        assertThat(result.get("resultType").asText()).isEqualTo("complete");
        assertThat(result.get("ttlMs").asLong()).isEqualTo(300_000);
        assertThat(result.get("cacheScope").asText()).isEqualTo("public");
        assertThat(result.at("/_meta/io.modelcontextprotocol~1serverInfo/name").asText()).isEqualTo("meta-gateway");
        HttpResponse<String> status = post(url, request(3, "tools/call", "\"name\":\"meta__status\""),
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", base64("meta__status"));
        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
        assertThat(body(status).at("/result/structuredContent/pods/tools/state").asText()).isEqualTo("NotStarted");
        HttpResponse<String> notification = post(url, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
                + "\"requestId\":3," + META + "}}", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "notifications/cancelled");
        assertThat(notification.statusCode()).isEqualTo(202);
        assertThat(notification.body()).isEmpty();
    }

    @Test
    void headersThatDisagreeWithTheBodyAre32020() throws Exception {
        String url = url(HttpOptions.defaults());
        String list = request(7, "tools/list", "");
        assertMismatch(post(url, list, "Mcp-Method", "tools/list"), "no MCP-Protocol-Version");
        assertMismatch(post(url, list, "MCP-Protocol-Version", "2026-07-28"), "no Mcp-Method");
        assertMismatch(post(url, list, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "prompts/list"), "another method");
        assertMismatch(post(url, list, "MCP-Protocol-Version", "2025-11-25", "Mcp-Method", "tools/list"), "another version");
        String call = request(7, "tools/call", "\"name\":\"tools__echo\",\"arguments\":{\"text\":\"x\",\"region\":\"eu-1\","
                + "\"options\":{\"count\":3}}");
        assertMismatch(post(url, call, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                "Mcp-Param-Region", "eu-1", "Mcp-Param-Count", "3"), "no Mcp-Name");
        assertMismatch(post(url, call, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "tools__other",
                "Mcp-Param-Region", "eu-1", "Mcp-Param-Count", "3"), "another name");
        assertMismatch(post(url, call, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "tools__echo",
                "Mcp-Param-Count", "3"), "no Mcp-Param-Region");
        assertMismatch(post(url, call, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "tools__echo",
                "Mcp-Param-Region", "us-2", "Mcp-Param-Count", "3"), "another Mcp-Param-Region");
        assertMismatch(post(url, call, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "tools__echo",
                "Mcp-Param-Region", "eu-1", "Mcp-Param-Count", "4"), "another nested Mcp-Param-Count");
        assertMismatch(post(url, request(7, "resources/read", "\"uri\":\"meta://status\""), "MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "resources/read", "Mcp-Name", "meta://other"), "another uri");
        HttpResponse<String> matching = post(url, request(8, "resources/read", "\"uri\":\"meta://status\""),
                "MCP-Protocol-Version", "2026-07-28", "mcp-method", "resources/read", "MCP-NAME", base64("meta://status"));
        assertThat(matching.statusCode()).as(matching.body()).isEqualTo(200);
        assertThat(body(matching).at("/result/cacheScope").asText()).isEqualTo("private");
    }

    @Test
    void aTaskRequestsMcpNameIsItsNamespacedTaskId() throws Exception {
        String url = url(HttpOptions.defaults());
        String declaring = request(7, "tasks/get", "\"taskId\":\"tools+t-1\"").replace(
                "\"io.modelcontextprotocol/clientCapabilities\":{}",
                "\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}");
        assertThat(declaring).contains("io.modelcontextprotocol/tasks");
        assertMismatch(post(url, declaring, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tasks/get"), "no Mcp-Name");
        assertMismatch(post(url, declaring, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tasks/get",
                "Mcp-Name", "t-1"), "the pod's own task id");
        HttpResponse<String> unknown = post(url, declaring, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tasks/get",
                "Mcp-Name", "tools+t-1");
        assertThat(body(unknown).at("/error/code").asInt()).as(unknown.body()).isEqualTo(-32602);
        HttpResponse<String> undeclared = post(url, request(7, "tasks/cancel", "\"taskId\":\"tools+t-1\""),
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tasks/cancel", "Mcp-Name", "tools+t-1");
        assertThat(undeclared.statusCode()).as(undeclared.body()).isEqualTo(400);
        assertThat(body(undeclared).at("/error/code").asInt()).isEqualTo(-32021);
        assertThat(body(undeclared).at("/error/data/requiredCapabilities").toString())
                .isEqualTo("{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}");
    }

    private static void assertMismatch(HttpResponse<String> response, String what) throws Exception {
        assertThat(response.statusCode()).as(what + ": " + response.body()).isEqualTo(400);
        assertThat(body(response).at("/error/code").asInt()).as(what).isEqualTo(-32020);
        assertThat(body(response).get("id").asInt()).as(what).isEqualTo(7);
    }

    @Test
    void versionEnvelopeAndMethodAreCheckedInThatOrder() throws Exception {
        String url = url(HttpOptions.defaults());
        String oldVersion = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2025-06-18\"}}}";
        HttpResponse<String> version = post(url, oldVersion, "MCP-Protocol-Version", "2025-06-18", "Mcp-Method", "tools/list");
        assertThat(version.statusCode()).isEqualTo(400);
        assertThat(body(version).at("/error/code").asInt()).isEqualTo(-32022);
        assertThat(body(version).at("/error/data/requested").asText()).isEqualTo("2025-06-18");
        assertThat(body(version).at("/error/data/supported").size()).isEqualTo(5);
        String noCapabilities = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}";
        HttpResponse<String> envelope = post(url, noCapabilities, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "ping");
        assertThat(envelope.statusCode()).isEqualTo(400);
        assertThat(body(envelope).at("/error/code").asInt()).isEqualTo(-32602);
        HttpResponse<String> noMeta = post(url, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}",
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list");
        assertThat(noMeta.statusCode()).as("the header alone makes it modern").isEqualTo(400);
        assertThat(body(noMeta).at("/error/code").asInt()).isEqualTo(-32602);
        HttpResponse<String> ping = post(url, request(4, "ping", ""), "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "ping");
        assertThat(ping.statusCode()).isEqualTo(404);
        assertThat(body(ping).at("/error/code").asInt()).isEqualTo(-32601);
        HttpResponse<String> unknownTool = post(url, request(5, "tools/call", "\"name\":\"tools__nope\""),
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "tools__nope");
        assertThat(unknownTool.statusCode()).as("errors found while serving are 200").isEqualTo(200);
        assertThat(body(unknownTool).at("/error/code").asInt()).isEqualTo(-32602);
    }

    @Test
    void modernGetAndDeleteAre405WhileLegacyOnesKeepTheirMeaning() throws Exception {
        String url = url(HttpOptions.defaults());
        for (String method : new String[] {"GET", "DELETE"}) {
            HttpResponse<String> refused = send(url, method, null, "MCP-Protocol-Version", "2026-07-28");
            assertThat(refused.statusCode()).as(method).isEqualTo(405);
            assertThat(refused.headers().firstValue("Allow").orElse("")).as(method).isEqualTo("POST");
        }
        HttpResponse<String> legacyGet = send(url, "GET", null, "Accept", "text/event-stream");
        assertThat(legacyGet.statusCode()).as("a legacy GET without a session").isEqualTo(400);
        HttpResponse<String> initialized = post(url, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HttpResponse<String> modernOnSession = post(url, request(2, "tools/list", ""), "MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "tools/list", "Mcp-Session-Id", session);
        assertThat(modernOnSession.statusCode()).isEqualTo(200);
        assertThat(modernOnSession.headers().firstValue("Mcp-Session-Id")).isEmpty();
        assertThat(send(url, "DELETE", null, "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25").statusCode())
                .isEqualTo(200);
    }

    @Test
    void withATokenTheTokenComesFirstAndListsArePrivate() throws Exception {
        String url = url(HttpOptions.builder().token(TOKEN).build());
        HttpResponse<String> anonymous = post(url, request(1, "tools/list", ""));
        assertThat(anonymous.statusCode()).as("401 before the header checks").isEqualTo(401);
        HttpResponse<String> tools = post(url, request(2, "tools/list", ""), "Authorization", "Bearer " + TOKEN,
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list");
        assertThat(tools.statusCode()).isEqualTo(200);
        assertThat(body(tools).at("/result/cacheScope").asText()).isEqualTo("private");
        HttpResponse<String> discover = post(url, request(3, "server/discover", ""), "Authorization", "Bearer " + TOKEN,
                "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "server/discover");
        assertThat(body(discover).at("/result/cacheScope").asText()).isEqualTo("private");
        assertThat(body(discover).at("/result/ttlMs").asLong()).isZero();
    }
}
