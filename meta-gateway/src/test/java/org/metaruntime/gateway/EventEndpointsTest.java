package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.eventlog.EventLogOptions;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.MobStructuralEventEnvelope;
import org.metaruntime.testing.LeakCheck;

/**
 * The event endpoints on a gateway serving HTTP, driven by the JDK's HTTP client over a real socket, on a real
 * SQLite event log: pages follow the filters and carry the stored envelopes byte for byte, streams resume with
 * {@code Last-Event-ID} (also across a restart of the gateway and the log) with nothing lost or repeated, a stream
 * whose client closes its connection ends at once (not at the next keep-alive), bad parameters are 400, and the
 * endpoints sit behind the token and Origin checks.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class EventEndpointsTest {

    private static final String TOKEN = "event-endpoints-token";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private EventLog log;
    private MetaGateway gateway;
    private Serving serving;
    private int next;

    @BeforeEach
    void start() throws Exception {
        log = EventLogs.persistentState(dir.resolve("state"));
        serve();
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().threads("meta-eventlog-tail-");

    @AfterEach
    void stop() {
        stopServing();
        log.close();
    }

    private void serve() throws IOException {
        serve(Duration.ofMillis(200));
    }

    private void serve(Duration keepAlive) throws IOException {
        gateway = MetaGateway.builder().manifests(NodeClient.manifests(dir, dir.resolve("pids"), "fixture"))
                .options(GatewayOptions.builder().eventLog(log).build()).build();
        HttpOptions options = EventEndpoints.mount(HttpOptions.builder().token(TOKEN), log, keepAlive).build();
        serving = gateway.serveHttp(new InetSocketAddress("127.0.0.1", 0), options);
    }

    private void stopServing() {
        if (serving != null) {
            serving.close();
            serving = null;
        }
        if (gateway != null) {
            gateway.close();
            gateway = null;
        }
    }

    private void append(int n, String module) {
        for (int i = 0; i < n; i++, next++) {
            log.append(EventEnvelope.module("e-" + next, 1_000 + next, module, next % 2 == 0 ? "tick" : "tock",
                    JsonNodeFactory.instance.objectNode().put("i", next).put("text", "caf\u00e9 \"q\" \\ " + next)));
        }
        assertThat(log.flush(Duration.ofSeconds(60))).isTrue();
    }

    private String url(String pathAndQuery) {
        return "http://127.0.0.1:" + serving.port() + pathAndQuery;
    }

    private HttpResponse<String> get(String pathAndQuery, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(pathAndQuery)))
                .timeout(Duration.ofSeconds(30)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> authorized(String pathAndQuery) throws Exception {
        return get(pathAndQuery, "Authorization", "Bearer " + TOKEN);
    }

    @Test
    void pagesFollowTheFiltersAndCarryTheStoredEnvelopes() throws Exception {
        append(90, "alpha");
        append(60, "beta");
        List<LoggedEvent> expected = log.query(EventQuery.builder().module("beta").eventType("tick").limit(1000)
                .build()).events();
        assertThat(expected).hasSize(30);

        List<Long> seqs = new ArrayList<>();
        String after = "";
        while (true) {
            HttpResponse<String> page = authorized("/meta/events?module=beta&event_type=tick&limit=7" + after);
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValue("application/json");
            JsonNode body = JSON.readTree(page.body());
            for (JsonNode row : body.get("events")) {
                seqs.add(row.get("seq").asLong());
                assertThat(row.get("instance_id").asText()).isEqualTo(log.instanceId());
            }
            if (body.get("next_after_seq").isNull()) {
                break;
            }
            after = "&after_seq=" + body.get("next_after_seq").asLong();
        }
        assertThat(seqs).containsExactlyElementsOf(expected.stream().map(LoggedEvent::seq).toList());

        String page = authorized("/meta/events?module=beta&event_type=tick&limit=100").body();
        for (LoggedEvent row : expected) {
            assertThat(page).contains("\"envelope\":" + row.json()); // byte for byte, as stored
        }
        JsonNode range = JSON.readTree(authorized("/meta/events?source=module&from_ms=1010&to_ms=1019").body());
        assertThat(range.get("events")).hasSize(10);
        assertThat(range.get("next_after_seq").isNull()).isTrue();
    }

    @Test
    void theEventsOfTheGatewaysPodsAreServed() throws Exception {
        HttpResponse<String> init = post(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        assertThat(init.statusCode()).isEqualTo(200);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode())
                .isEqualTo(202);
        HttpResponse<String> call = post(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"fixture__echo\",\"arguments\":{\"text\":\"hi\"}}}");
        assertThat(call.body()).contains("hi");
        // The pod's start is an event of the gateway's runtime: it is in the log and served.
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(JSON.readTree(
                authorized("/meta/events?module=fixture").body()).get("events")).isNotEmpty());
    }

    private HttpResponse<String> post(String session, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url("/mcp"))).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void badRequestsAreRefusedWithTheReason() throws Exception {
        for (String query : List.of("limit=0", "limit=10001", "limit=abc", "after_seq=-1", "modul=x", "module=",
                "from_ms=5&to_ms=4", "module=a&module=b")) {
            HttpResponse<String> response = authorized("/meta/events?" + query);
            assertThat(response.statusCode()).as(query).isEqualTo(400);
            assertThat(JSON.readTree(response.body()).get("error").asText()).as(query).isNotBlank();
        }
        assertThat(authorized("/meta/mob_events?after_cursor=-2").statusCode()).isEqualTo(400);
        assertThat(get("/meta/events/stream", "Authorization", "Bearer " + TOKEN, "Last-Event-ID", "seven")
                .statusCode()).isEqualTo(400);
        assertThat(authorized("/meta/events/other").statusCode()).isEqualTo(404);
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(url("/meta/events")))
                .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET");
    }

    @Test
    void theEndpointsAreBehindTheTokenAndOriginChecks() throws Exception {
        append(3, "alpha");
        for (String path : List.of("/meta/events", "/meta/events/stream", "/meta/mob_events",
                "/meta/mob_events/stream")) {
            assertThat(get(path).statusCode()).as(path).isEqualTo(401);
            assertThat(get(path, "Authorization", "Bearer wrong").statusCode()).as(path).isEqualTo(401);
            assertThat(get(path, "Authorization", "Bearer " + TOKEN, "Origin", "https://evil.example")
                    .statusCode()).as(path).isEqualTo(403);
        }
        assertThat(get("/meta/events", "Authorization", "Bearer " + TOKEN, "Origin", "http://localhost:5173")
                .statusCode()).isEqualTo(200);
    }

    @Test
    void theStreamResumesWithLastEventIdAcrossARestartWithNothingLostOrRepeated() throws Exception {
        append(40, "alpha");
        append(40, "beta");
        List<Long> received = new ArrayList<>();
        String last;
        try (Sse sse = stream("/meta/events/stream?module=beta")) {
            for (int i = 0; i < 15; i++) {
                received.add(sse.next("envelope").id);
            }
            last = Long.toString(received.get(received.size() - 1));
            append(10, "beta"); // live rows reach an open stream
            for (int i = 0; i < 5; i++) {
                received.add(sse.next("envelope").id);
            }
            last = Long.toString(received.get(received.size() - 1));
        }
        append(20, "beta");
        stopServing();
        log.close();
        log = EventLogs.persistentState(dir.resolve("state"));
        serve();
        append(10, "beta");
        List<LoggedEvent> all = log.query(EventQuery.builder().module("beta").limit(1000).build()).events();
        assertThat(all).hasSize(80);
        try (Sse sse = stream("/meta/events/stream?module=beta", "Last-Event-ID", last)) {
            while (received.size() < all.size()) {
                Event event = sse.next("envelope");
                received.add(event.id);
                LoggedEvent row = all.get(received.size() - 1);
                assertThat(event.data).isEqualTo(row.json());
            }
        }
        assertThat(received).containsExactlyElementsOf(all.stream().map(LoggedEvent::seq).toList());
    }

    @Test
    void aStreamWhoseClientClosesItsConnectionEndsAtOnce() throws Exception {
        stopServing();
        serve(Duration.ofHours(1)); // no keep-alive write finds the closed connection
        append(3, "alpha");
        long before = tailThreads();
        try (Socket client = new Socket("127.0.0.1", serving.port())) {
            client.setSoTimeout(30_000);
            client.getOutputStream().write(("GET /meta/events/stream?module=alpha HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\nAccept: text/event-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = client.getInputStream();
            StringBuilder seen = new StringBuilder();
            while (seen.indexOf("event: envelope") < 0) {
                int b = in.read();
                assertThat(b).as("the stream ended early: %s", seen).isNotNegative();
                seen.append((char) b);
            }
            assertThat(tailThreads()).as("the stream's tail of the log").isEqualTo(before + 1);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> tailThreads() == before);
    }

    @Test
    void mobEventsPageAndStreamByCursor() throws Exception {
        for (long cursor = 1; cursor <= 12; cursor++) {
            log.appendMobEvent(mobEvent(cursor, cursor % 2 == 0 ? "m1" : "m2"));
        }
        assertThat(log.flush(Duration.ofSeconds(60))).isTrue();
        JsonNode page = JSON.readTree(authorized("/meta/mob_events?mob_id=m1&limit=4").body());
        assertThat(page.get("events")).extracting(e -> e.get("cursor").asLong()).containsExactly(2L, 4L, 6L, 8L);
        assertThat(page.get("events").get(0).get("envelope").get("event_id").asText()).isEqualTo("mob-evt-2");
        assertThat(page.get("next_after_cursor").asLong()).isEqualTo(8);

        List<Long> cursors = new ArrayList<>();
        try (Sse sse = stream("/meta/mob_events/stream?mob_id=m1", "Last-Event-ID", "4")) {
            for (int i = 0; i < 4; i++) {
                cursors.add(sse.next("envelope").id);
            }
            log.appendMobEvent(new MobStructuralEventEnvelope("mob-evt-14", 14, "m1", 5_014, "flow_step", null, null,
                    null, Map.of(), Map.of(), JsonNodeFactory.instance.objectNode()));
            Event live = sse.next("envelope");
            cursors.add(live.id);
            assertThat(JSON.readTree(live.data).get("event_id").asText()).isEqualTo("mob-evt-14");
        }
        assertThat(cursors).containsExactly(6L, 8L, 10L, 12L, 14L);
    }

    @Test
    void aStreamSendsANewEventWhenTheLogCommitsIt() throws Exception {
        stopServing();
        log.close();
        // no tail reads the log again on a schedule during this test: only the log's commits wake them
        log = EventLogs.persistentState(dir.resolve("unpolled"),
                EventLogOptions.builder().tailPollInterval(Duration.ofDays(1)).build());
        serve();
        try (Sse mobs = stream("/meta/mob_events/stream"); Sse events = stream("/meta/events/stream?module=alpha")) {
            for (long cursor = 1; cursor <= 3; cursor++) {
                log.appendMobEvent(mobEvent(cursor, "m1"));
                assertThat(mobs.next("envelope").id).as("mob event %s", cursor).isEqualTo(cursor);
                append(1, "alpha");
                assertThat(JSON.readTree(events.next("envelope").data).get("event_id").asText())
                        .isEqualTo("e-" + (next - 1));
            }
        }
    }

    private static MobStructuralEventEnvelope mobEvent(long cursor, String mobId) {
        return new MobStructuralEventEnvelope("mob-evt-" + cursor, cursor, mobId, 5_000 + cursor,
                cursor % 3 == 0 ? "member_spawned" : "flow_step", "run-1", null, null, Map.of("team", "a"), Map.of(),
                JsonNodeFactory.instance.objectNode().put("n", cursor));
    }

    private Sse stream(String pathAndQuery, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(pathAndQuery)))
                .header("Authorization", "Bearer " + TOKEN).header("Accept", "text/event-stream").GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        HttpResponse<Stream<String>> response = http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        return new Sse(response.body());
    }

    private static long tailThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("meta-eventlog-tail-")).count();
    }

    private record Event(long id, String type, String data) {
    }

    /** A server-sent event stream read line by line; comments (keep-alives) are skipped. */
    private static final class Sse implements AutoCloseable {
        private final Stream<String> lines;
        private final Iterator<String> it;

        Sse(Stream<String> lines) {
            this.lines = lines;
            this.it = lines.iterator();
        }

        Event next(String type) {
            String id = null;
            String event = null;
            String data = null;
            while (it.hasNext()) {
                String line = it.next();
                if (line.isEmpty()) {
                    if (data != null) {
                        assertThat(event).isEqualTo(type);
                        return new Event(Long.parseLong(id), event, data);
                    }
                } else if (line.startsWith("id: ")) {
                    id = line.substring(4);
                } else if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
            throw new AssertionError("the stream ended");
        }

        @Override
        public void close() {
            lines.close();
        }
    }
}
