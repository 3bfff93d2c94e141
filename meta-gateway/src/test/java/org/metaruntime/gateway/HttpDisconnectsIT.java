package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * Clients that go away: a client whose connection closes while its call runs gets the call cancelled at its pod at
 * once (the pod reads {@code notifications/cancelled}), not at the next keep-alive; a dropped event stream ends
 * (an HTTP+SSE session with it) at once; a call the client cancels leaves the session's calls in flight at once, so
 * its POST ends and stopping does not wait for it. The pod's stdin is copied to a file, so the test sees what the
 * pod was sent, in order.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HttpDisconnectsIT {

    /** Well under the 15 s of the keep-alive, which found a closed connection before (or did not, for JSON-only). */
    private static final Duration PROMPTLY = Duration.ofSeconds(8);
    private static final Pattern SESSIONS = Pattern.compile("(?m)^meta_gateway_sessions_open\\{transport=\"sse\"} ([0-9.]+)$");

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Path stdinLog;
    private HttpGateway gateway;

    @BeforeEach
    void start() throws Exception {
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        Path pids = Files.createDirectories(dir.resolve("pids"));
        stdinLog = dir.resolve("stdin.log");
        Files.writeString(manifests.resolve("fixture.yaml"), String.join("\n",
                "apiVersion: mcp-meta/v1",
                "kind: ToolPod",
                "metadata: { name: fixture }",
                "spec:",
                "  command: [\"sh\", \"-c\", \"tee -a \\\"$STDIN_LOG\\\" | python3 fixture_pod.py\"]",
                "  workdir: " + NodeClient.PODS,
                "  env: { STDIN_LOG: \"" + stdinLog + "\", FIXTURE_PID_DIR: \"" + pids + "\" }",
                "  callTimeout: 120s",
                "  tools:",
                "    - name: slow",
                "      inputSchema: { type: object, properties: { seconds: { type: number }, steps: { type: integer } } }",
                ""));
        gateway = HttpGateway.start(List.of("--manifests", manifests.toString()));
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFilesIn(() -> dir.resolve("pids"), "");

    @AfterEach
    void stop() throws Exception {
        gateway.close();
    }

    private String initialize() throws Exception {
        return post(HttpEndpointsIT.INIT, null).headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private HttpResponse<String> post(String body, String sid) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.url())).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (sid != null) {
            request.header("Mcp-Session-Id", sid);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String slowCall(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"fixture__slow\","
                + "\"arguments\":{\"seconds\":60,\"steps\":60}}}";
    }

    /** The lines the pod was sent that contain {@code text}. */
    private List<String> sent(String text) throws IOException {
        if (!Files.exists(stdinLog)) {
            return List.of();
        }
        return Files.readAllLines(stdinLog).stream().filter(line -> line.contains(text)).toList();
    }

    /** A connection of its own: writes {@code head} (and {@code body}), then reads until {@code until} has come. */
    private Socket open(String head, String body, String until) throws IOException {
        URI uri = URI.create(gateway.url());
        Socket socket = new Socket(uri.getHost(), uri.getPort());
        socket.setSoTimeout(30_000);
        OutputStream out = socket.getOutputStream();
        out.write((head + "Host: " + uri.getHost() + ":" + uri.getPort() + "\r\n"
                + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: "
                        + body.getBytes(StandardCharsets.UTF_8).length + "\r\n") + "\r\n"
                + (body == null ? "" : body)).getBytes(StandardCharsets.UTF_8));
        out.flush();
        if (until != null) {
            InputStream in = socket.getInputStream();
            StringBuilder seen = new StringBuilder();
            while (seen.indexOf(until) < 0) {
                int b = in.read();
                assertThat(b).as("the connection ended before %s; read: %s", until, seen).isNotNegative();
                seen.append((char) b);
            }
        }
        return socket;
    }

    private double sseSessions() throws Exception {
        String text = http.send(HttpRequest.newBuilder(URI.create(gateway.base() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = SESSIONS.matcher(text);
        assertThat(m.find()).as(text).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void aClosedConnectionCancelsItsCallAtThePodAtOnce() throws Exception {
        String sid = initialize();
        // JSON only: nothing is ever written to this connection before the answer, so no write can find it closed.
        Socket client = open("POST /mcp HTTP/1.1\r\nAccept: application/json\r\nMcp-Session-Id: " + sid + "\r\n",
                slowCall(7), null);
        await().atMost(Duration.ofSeconds(30)).until(() -> sent("\"tools/call\"").size() == 1);
        assertThat(sent("notifications/cancelled")).as("before the connection closes").isEmpty();
        client.close();
        await().atMost(PROMPTLY).untilAsserted(() -> assertThat(sent("notifications/cancelled")).hasSize(1));
        assertThat(gateway.stderr()).contains("the connection of request 7 broke");

        // The session serves on.
        HttpResponse<String> ping = post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}", sid);
        assertThat(ping.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}}");
        gateway.stopCleanly();
        assertThat(gateway.stderr()).doesNotContain("still in flight");
    }

    @Test
    void aDroppedEventStreamEndsAtOnce() throws Exception {
        Socket legacy = open("GET /sse HTTP/1.1\r\nAccept: text/event-stream\r\n", null, "event: endpoint");
        assertThat(sseSessions()).isEqualTo(1.0);
        legacy.close();
        await().atMost(PROMPTLY).until(() -> sseSessions() == 0.0);

        String sid = initialize();
        String get = "GET /mcp HTTP/1.1\r\nAccept: text/event-stream\r\nMcp-Session-Id: " + sid + "\r\n";
        Socket stream = open(get, null, ": keep-alive");
        stream.close();
        // A session has one GET stream at a time: a second is refused (409) while the first is taken as open.
        await().atMost(PROMPTLY).untilAsserted(() -> {
            HttpResponse<InputStream> again = http.send(HttpRequest.newBuilder(URI.create(gateway.url()))
                    .header("Accept", "text/event-stream").header("Mcp-Session-Id", sid).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            again.body().close();
            assertThat(again.statusCode()).isEqualTo(200);
        });
        gateway.stopCleanly();
    }

    @Test
    void aCancelledCallLeavesTheSessionAtOnce() throws Exception {
        String sid = initialize();
        int calls = 40;
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            answers.add(http.sendAsync(HttpRequest.newBuilder(URI.create(gateway.url())).timeout(Duration.ofSeconds(120))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .header("Mcp-Session-Id", sid).POST(HttpRequest.BodyPublishers.ofString(slowCall(100 + i))).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> sent("\"tools/call\"").size() == calls);
        for (int i = 0; i < calls; i++) {
            HttpResponse<String> accepted = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                    + "{\"requestId\":" + (100 + i) + ",\"reason\":\"the user gave up\"}}", sid);
            assertThat(accepted.statusCode()).isEqualTo(202);
        }
        await().atMost(PROMPTLY).until(() -> answers.stream().allMatch(CompletableFuture::isDone));
        for (CompletableFuture<HttpResponse<String>> answer : answers) {
            assertThat(answer.get().statusCode()).isEqualTo(200);
            assertThat(answer.get().body()).as("a cancelled request gets no answer").doesNotContain("\"result\"");
        }
        assertThat(sent("notifications/cancelled")).hasSize(calls);
        gateway.stopCleanly();
        assertThat(gateway.stderr()).doesNotContain("still in flight");
    }
}
