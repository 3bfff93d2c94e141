package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * {@code bin/meta-gateway --transport http --state DIR}: the pods' events go to {@code DIR/event_log.sqlite3} and are
 * served at {@code /meta/events} behind the token; after a restart with the same directory the stream resumes
 * from {@code Last-Event-ID} with nothing lost or repeated.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class StateDirIT {

    private static final String TOKEN = "state-dir-token";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void theEventLogOutlivesARestartAndTheStreamResumesWithNothingLostOrRepeated() throws Exception {
        Path state = dir.resolve("state");
        List<String> args = List.of("--manifests", NodeClient.manifests(dir, dir.resolve("pids"), "fixture").toString(),
                "--state", state.toString());
        List<JsonNode> firstRun;
        try (HttpGateway gateway = HttpGateway.start(args, Map.of("META_GATEWAY_TOKEN", TOKEN))) {
            assertThat(get(gateway, "/meta/events", false).statusCode()).isEqualTo(401);
            assertThat(events(gateway, "module=fixture")).isEmpty(); // the pod starts with its first call
            assertThat(echo(gateway, "first")).contains("first");
            // The call started the pod: its start is in the log, served with the stored envelope.
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(events(gateway, "module=fixture"))
                    .extracting(e -> e.at("/envelope/event/event_type").asText()).contains("mcp.ready"));
            firstRun = events(gateway, "");
            gateway.stopCleanly();
        }
        assertThat(Files.exists(state.resolve("event_log.sqlite3"))).isTrue();
        long last = firstRun.get(firstRun.size() - 1).get("seq").asLong();

        try (HttpGateway gateway = HttpGateway.start(args, Map.of("META_GATEWAY_TOKEN", TOKEN))) {
            // The first run's rows are read back from the log, unchanged.
            assertThat(events(gateway, "after_seq=0").subList(0, firstRun.size())).isEqualTo(firstRun);
            assertThat(echo(gateway, "second")).contains("second");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(events(gateway, "after_seq=" + last))
                    .extracting(e -> e.at("/envelope/event/event_type").asText()).contains("mcp.ready"));
            List<JsonNode> all = events(gateway, "");
            List<JsonNode> expected = all.subList(firstRun.size(), all.size());
            assertThat(expected).isNotEmpty();
            HttpResponse<Stream<String>> response = http.send(request(gateway, "/meta/events/stream", true)
                    .header("Accept", "text/event-stream").header("Last-Event-ID", Long.toString(last)).build(),
                    HttpResponse.BodyHandlers.ofLines());
            assertThat(response.statusCode()).isEqualTo(200);
            List<Long> received = new ArrayList<>();
            try (Stream<String> lines = response.body()) {
                Iterator<String> it = lines.iterator();
                for (JsonNode row : expected) {
                    String[] event = next(it);
                    received.add(Long.parseLong(event[0]));
                    assertThat(NodeClient.JSON.readTree(event[1])).isEqualTo(row.get("envelope"));
                }
            }
            assertThat(received).containsExactlyElementsOf(expected.stream().map(r -> r.get("seq").asLong()).toList());
            assertThat(received.get(0)).isGreaterThan(last);
            gateway.stopCleanly();
        }
    }

    /** The next server-sent event: {id, data}; keep-alive comments are skipped. */
    private static String[] next(Iterator<String> lines) {
        String id = null;
        String data = null;
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.isEmpty() && data != null) {
                return new String[] {id, data};
            } else if (line.startsWith("id: ")) {
                id = line.substring(4);
            } else if (line.startsWith("data: ")) {
                data = line.substring(6);
            }
        }
        throw new AssertionError("the stream ended");
    }

    private List<JsonNode> events(HttpGateway gateway, String query) throws Exception {
        HttpResponse<String> response = get(gateway, "/meta/events?limit=1000" + (query.isEmpty() ? "" : "&" + query), true);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode page = NodeClient.JSON.readTree(response.body());
        assertThat(page.get("next_after_seq").isNull()).isTrue();
        List<JsonNode> rows = new ArrayList<>();
        page.get("events").forEach(rows::add);
        return rows;
    }

    private String echo(HttpGateway gateway, String text) throws Exception {
        HttpResponse<String> init = post(gateway, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        assertThat(init.statusCode()).isEqualTo(200);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post(gateway, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode())
                .isEqualTo(202);
        return post(gateway, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"fixture__echo\",\"arguments\":{\"text\":\"" + text + "\"}}}").body();
    }

    private HttpResponse<String> post(HttpGateway gateway, String session, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.url())).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(HttpGateway gateway, String path, boolean authorized) throws Exception {
        return http.send(request(gateway, path, authorized).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(HttpGateway gateway, String path, boolean authorized) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.base() + path)).GET();
        return authorized ? request.header("Authorization", "Bearer " + TOKEN) : request;
    }
}
