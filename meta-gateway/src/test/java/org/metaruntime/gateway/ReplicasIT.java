package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code bin/meta-gateway} replicas sharing one PostgreSQL database ({@code --state jdbc:postgresql://...}): each
 * registers (and {@code /healthz} says so), a legacy session opened on one is served by the other, {@code DELETE} on
 * one ends it on both, both serve the one event log, replica-to-replica requests without the cluster key's HMAC are
 * refused (403), a retry of a call whose replica is gone fails with -32002 naming it, and a clean stop removes the
 * replica.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicasIT {

    private static final String TOKEN = "replicas-token";
    private static final String KEY = "a-cluster-key-of-the-replicas-it";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    @RegisterExtension
    final FreshDatabase database = new FreshDatabase();

    private List<String> args() throws Exception {
        Path key = Files.writeString(dir.resolve("cluster.key"), KEY + "\n");
        return List.of("--manifests", NodeClient.manifests(dir, dir.resolve("pids"), "fixture").toString(),
                "--state", database.url(), "--cluster-key-file", key.toString());
    }

    @Test
    void aLegacySessionOpenedOnOneReplicaIsServedAndEndedOnTheOther() throws Exception {
        List<String> args = args();
        try (HttpGateway a = HttpGateway.start(args, Map.of("META_GATEWAY_TOKEN", TOKEN));
             HttpGateway b = HttpGateway.start(args, Map.of("META_GATEWAY_TOKEN", TOKEN))) {
            JsonNode health = NodeClient.JSON.readTree(get(a, "/healthz").body());
            assertThat(health.path("status").asText()).isEqualTo("ok");
            assertThat(health.at("/replica/registered").asBoolean()).isTrue();
            assertThat(health.at("/replica/database").asText()).isEqualTo("reachable");
            assertThat(replicas()).containsExactlyInAnyOrder(a.base(), b.base());
            assertThat(a.stderr() + b.stderr()).doesNotContain(KEY);

            HttpResponse<String> init = post(a, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
            assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
            String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
            assertThat(post(b, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode())
                    .isEqualTo(202);
            HttpResponse<String> call = post(b, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"fixture__echo\",\"arguments\":{\"text\":\"via b\"}}}");
            assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
            assertThat(call.body()).contains("via b");
            assertThat(post(a, session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}").statusCode()).isEqualTo(200);

            // The event log is shared: the pod of b started, and a serves the row.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(get(a, "/meta/events?module=fixture").body())
                    .contains("mcp.ready"));

            // The GET stream is held by the replica the GET reached.
            HttpResponse<java.util.stream.Stream<String>> stream = http.sendAsync(request(b, "/mcp").header("Mcp-Session-Id", session)
                    .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofLines())
                    .get(30, TimeUnit.SECONDS);
            assertThat(stream.statusCode()).isEqualTo(200);
            assertThat(stream.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");

            HttpResponse<String> delete = http.send(request(b, "/mcp").header("Mcp-Session-Id", session).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(delete.statusCode()).isEqualTo(200);
            assertThat(post(a, session, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}").statusCode()).isEqualTo(404);
            assertThat(post(b, session, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}").statusCode()).isEqualTo(404);
            stream.body().close();

            // Replica-to-replica requests need the cluster key's HMAC: missing, stale or wrong is 403.
            String ping = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}";
            assertThat(forwarded(a, ping, null, null, true).statusCode()).isEqualTo(403);
            assertThat(forwarded(a, ping, null, null, false).statusCode()).isEqualTo(403);
            long now = System.currentTimeMillis();
            assertThat(forwarded(a, ping, Long.toString(now), "00ff", true).statusCode()).isEqualTo(403);
            assertThat(forwarded(a, ping, Long.toString(now - 120_000), sign(ping, now - 120_000), true).statusCode())
                    .isEqualTo(403);

            // A retry whose requestState names a replica that is gone: -32002 naming it.
            String retry = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"fixture__echo\","
                    + "\"arguments\":{\"text\":\"x\"},\"requestState\":\"" + requestState("r-00000000dead") + "\"}}";
            HttpResponse<String> lost = http.send(request(b, "/mcp").header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2026-07-28")
                    .header("Mcp-Method", "tools/call").header("Mcp-Name", "fixture__echo")
                    .POST(HttpRequest.BodyPublishers.ofString(retry)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode error = NodeClient.JSON.readTree(lost.body()).path("error");
            assertThat(error.path("code").asInt()).as(lost.body()).isEqualTo(-32002);
            assertThat(error.path("message").asText()).contains("r-00000000dead");

            // tasks/get of a task whose replica is gone: -32002 naming it.
            String get = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tasks/get\",\"params\":{\"taskId\":\"r-00000000dead:fixture+t1\"}}";
            HttpResponse<String> task = http.send(request(a, "/mcp").header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2026-07-28")
                    .header("Mcp-Method", "tasks/get").header("Mcp-Name", "r-00000000dead:fixture+t1")
                    .POST(HttpRequest.BodyPublishers.ofString(get)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(NodeClient.JSON.readTree(task.body()).at("/error/code").asInt()).as(task.body()).isEqualTo(-32002);
            assertThat(task.body()).contains("r-00000000dead");

            b.stopCleanly();
            assertThat(replicas()).containsExactly(a.base());
            a.stopCleanly();
            assertThat(replicas()).isEmpty();
        }
    }

    private HttpResponse<String> forwarded(HttpGateway gateway, String body, String timestamp, String signature,
                                           boolean token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.base() + "/meta/cluster/mcp"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token) {
            request.header("Authorization", "Bearer " + TOKEN);
        }
        if (timestamp != null) {
            request.header("X-Meta-Cluster-Timestamp", timestamp).header("X-Meta-Cluster-Signature", signature);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] hmac(byte[] key, byte[] data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data);
    }

    private static String sign(String body, long timestamp) throws Exception {
        return HexFormat.of().formatHex(hmac(KEY.getBytes(StandardCharsets.UTF_8),
                ("POST\n/meta/cluster/mcp\n" + timestamp + "\n" + body).getBytes(StandardCharsets.UTF_8)));
    }

    /** A requestState sealed as the cluster's replica {@code owner} would seal it. */
    private static String requestState(String owner) throws Exception {
        byte[] key = hmac(KEY.getBytes(StandardCharsets.UTF_8), "meta-gateway requestState".getBytes(StandardCharsets.UTF_8));
        byte[] payload = ("{\"v\":1,\"call\":\"c1\",\"round\":1,\"tool\":\"fixture__echo\",\"args\":\"a\",\"caller\":\"k\","
                + "\"exp\":" + (System.currentTimeMillis() + 600_000) + ",\"owner\":\"" + owner + "\"}").getBytes(StandardCharsets.UTF_8);
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString(payload) + "." + b64.encodeToString(hmac(key, payload));
    }

    private List<String> replicas() throws Exception {
        List<String> urls = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(database.url()); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT url FROM gateway_replica")) {
            while (rows.next()) {
                urls.add(rows.getString(1));
            }
        }
        return urls;
    }

    private HttpResponse<String> post(HttpGateway gateway, String session, String body) throws Exception {
        HttpRequest.Builder request = request(gateway, "/mcp").header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(HttpGateway gateway, String path) throws Exception {
        return http.send(request(gateway, path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(HttpGateway gateway, String path) {
        return HttpRequest.newBuilder(URI.create(gateway.base() + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + TOKEN);
    }
}
