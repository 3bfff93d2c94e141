package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * The gateway's credentials stay its own: no pod's environment holds its bearer token (whether it came from
 * {@code META_GATEWAY_TOKEN} or a token file), no line of its stderr carries it even at {@code --log-level debug},
 * and the {@code Bearer} scheme is matched in any case; nor does a local pod's environment hold the variables that a
 * remote pod's headers read (credentials for remote servers).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HttpCredentialsIT {

    private static final String TOKEN = "tok-8d1f3a7c5e-credential";
    private static final String FILE_TOKEN = "tok-from-a-file-42b9e07d";
    private static final String REMOTE_KEY = "remote-key-6a2f94d1b3";
    private static final Pattern LOG_LINE = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[[^\\]]*\\] (\\w+) (\\S+) ");

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private HttpResponse<String> post(String url, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String url, String authorization) throws Exception {
        return get(http, url, authorization);
    }

    /** A GET on a new connection. */
    private static HttpResponse<String> getAlone(String url, String authorization) throws Exception {
        return get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), url, authorization);
    }

    private static HttpResponse<String> get(HttpClient http, String url, String authorization) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Authorization", authorization).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String call(int id, String text) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"fixture__echo\","
                + "\"arguments\":{\"text\":\"" + text + "\"}}}";
    }

    /** The environment of every pod the gateway started (their pids are in {@code pids}), as read by the system. */
    private static List<String> podEnvironments(Path pids) throws Exception {
        List<String> environments = new ArrayList<>();
        try (Stream<Path> files = Files.list(pids)) {
            for (Path pid : files.toList()) {
                byte[] environ = Files.readAllBytes(Path.of("/proc", pid.getFileName().toString(), "environ"));
                environments.add(new String(environ, StandardCharsets.UTF_8).replace('\0', '\n'));
            }
        }
        return environments;
    }

    @Test
    void noPodInheritsTheGatewaysToken() throws Exception {
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "fixture", "live");
        Path tokenFile = Files.writeString(dir.resolve("token"), FILE_TOKEN + "\n");
        Map<String, String> env = Map.of("META_GATEWAY_TOKEN", TOKEN, "COPY_OF_THE_FILE_TOKEN", FILE_TOKEN,
                "PLAIN_SETTING", "inherited-as-usual");
        // With both, the file's token is the one served; the variable is the gateway's own all the same.
        try (HttpGateway gateway = HttpGateway.start(List.of("--manifests", manifests.toString(), "--token-file",
                tokenFile.toString()), env)) {
            String sid = post(gateway.url(), HttpEndpointsIT.INIT, "Authorization", "Bearer " + FILE_TOKEN)
                    .headers().firstValue("Mcp-Session-Id").orElseThrow();
            HttpResponse<String> echoed = post(gateway.url(), call(2, "spawned"), "Authorization", "Bearer " + FILE_TOKEN,
                    "Mcp-Session-Id", sid);
            assertThat(echoed.body()).contains("spawned");

            List<String> environments = podEnvironments(pids);
            assertThat(environments).as("the fixture pod and the live pod").hasSize(2);
            for (String environment : environments) {
                assertThat(environment).contains("PLAIN_SETTING=inherited-as-usual")
                        .doesNotContain(TOKEN).doesNotContain(FILE_TOKEN).doesNotContain("META_GATEWAY_TOKEN");
            }
            gateway.stopCleanly();
        }
    }

    @Test
    void noLocalPodInheritsTheVariablesThatARemotePodsHeadersRead() throws Exception {
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "fixture", "live");
        Files.writeString(manifests.resolve("remote.yaml"), String.join("\n",
                "apiVersion: mcp-meta/v1",
                "kind: ToolPod",
                "metadata: { name: remote }",
                "spec:",
                "  url: http://127.0.0.1:9/mcp",
                "  headers: { Authorization: \"Bearer ${REMOTE_API_KEY}\", X-Tenant: \"${REMOTE_TENANT}-eu\" }",
                "  tools:",
                "    - name: search",
                "      inputSchema: { type: object }",
                ""));
        Map<String, String> env = Map.of("REMOTE_API_KEY", REMOTE_KEY, "REMOTE_TENANT", "tenant-5c0e91",
                "PLAIN_SETTING", "inherited-as-usual");
        try (HttpGateway gateway = HttpGateway.start(List.of("--manifests", manifests.toString()), env)) {
            String sid = post(gateway.url(), HttpEndpointsIT.INIT).headers().firstValue("Mcp-Session-Id").orElseThrow();
            assertThat(post(gateway.url(), call(2, "spawned"), "Mcp-Session-Id", sid).body()).contains("spawned");

            List<String> environments = podEnvironments(pids);
            assertThat(environments).as("the fixture pod and the live pod").hasSize(2);
            for (String environment : environments) {
                assertThat(environment).contains("PLAIN_SETTING=inherited-as-usual")
                        .doesNotContain(REMOTE_KEY).doesNotContain("REMOTE_API_KEY")
                        .doesNotContain("tenant-5c0e91").doesNotContain("REMOTE_TENANT");
            }
            gateway.stopCleanly();
            assertThat(gateway.stderr()).doesNotContain(REMOTE_KEY);
        }
    }

    @Test
    void noLogLineCarriesTheTokenAtDebugAndLibrariesStayQuiet() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        try (HttpGateway gateway = HttpGateway.start(List.of("--manifests", manifests.toString(), "--log-level", "debug"),
                Map.of("META_GATEWAY_TOKEN", TOKEN))) {
            String bearer = "Bearer " + TOKEN;
            String sid = post(gateway.url(), HttpEndpointsIT.INIT, "Authorization", bearer)
                    .headers().firstValue("Mcp-Session-Id").orElseThrow();
            for (int i = 0; i < 30; i++) {
                HttpResponse<String> echoed = post(gateway.url(), call(10 + i, "n" + i), "Authorization", bearer, "Mcp-Session-Id", sid);
                assertThat(echoed.statusCode()).isEqualTo(200);
            }
            assertThat(get(gateway.base() + "/metrics", bearer).statusCode()).isEqualTo(200);
            assertThat(get(gateway.base() + "/metrics", "Bearer " + TOKEN.substring(1)).statusCode()).isEqualTo(401);
            gateway.stopCleanly();

            String stderr = gateway.stderr();
            assertThat(stderr).as("the gateway's own debug lines").contains(" DEBUG org.metaruntime.");
            assertThat(stderr).doesNotContain(TOKEN).doesNotContain(TOKEN.substring(1));
            List<String> libraryDebug = new ArrayList<>();
            for (String line : stderr.split("\n")) {
                Matcher m = LOG_LINE.matcher(line);
                if (m.find() && (m.group(1).equals("DEBUG") || m.group(1).equals("TRACE")) && !m.group(2).startsWith("org.metaruntime.")) {
                    libraryDebug.add(line);
                }
            }
            assertThat(libraryDebug).as("debug lines of libraries").isEmpty();
        }
    }

    @Test
    void theBearerSchemeIsMatchedInAnyCaseAndTheTokenExactly() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        try (HttpGateway gateway = HttpGateway.start(List.of("--manifests", manifests.toString()), Map.of("META_GATEWAY_TOKEN", TOKEN))) {
            String metrics = gateway.base() + "/metrics";
            for (String scheme : List.of("bearer", "BEARER", "bEaReR", "Bearer")) {
                assertThat(getAlone(metrics, scheme + " " + TOKEN).statusCode()).as(scheme).isEqualTo(200);
            }
            assertThat(getAlone(metrics, "Bearer  " + TOKEN).statusCode()).as("two spaces").isEqualTo(200);
            for (String wrong : List.of("Basic " + TOKEN, TOKEN, "Bearer" + TOKEN, "Bearer " + TOKEN + "x", "Bearer",
                    "Bearer " + TOKEN.toUpperCase(java.util.Locale.ROOT))) {
                assertThat(getAlone(metrics, wrong).statusCode()).as(wrong).isEqualTo(401);
            }
            // One connection: a header seen before on it is not matched again regardless of case.
            assertThat(get(metrics, "Bearer " + TOKEN).statusCode()).isEqualTo(200);
            assertThat(get(metrics, "Bearer " + TOKEN.toUpperCase(java.util.Locale.ROOT)).statusCode()).as("upper-case token")
                    .isEqualTo(401);
            assertThat(get(metrics, "bearer " + TOKEN).statusCode()).isEqualTo(200);
            gateway.stopCleanly();
        }
    }
}
