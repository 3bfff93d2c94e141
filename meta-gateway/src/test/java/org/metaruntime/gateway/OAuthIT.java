package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * {@code bin/meta-gateway --transport http} as an OAuth 2.1 resource server of a real OpenID provider
 * ({@code oidc-provider} on 127.0.0.1, client credentials with a resource indicator, RS256 JWT access tokens), with
 * named tokens beside it; bad tokens are forged with {@code jose}. A second gateway's issuer answers its metadata but
 * never its JWKS: requests wait a bounded time, all at once, for one fetch, and get 503.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class OAuthIT {

    private static final String AUDIENCE = "meta-gateway";
    private static final String RESOURCE = "https://gateway.example/mcp";
    private static final String METADATA_URL = "https://gateway.example/.well-known/oauth-protected-resource/mcp";
    private static final String ALICE = "alice-token-5f0c2b8e91d4";
    private static final String BOB = "bob-token-a83e6d10c7f2";
    private static final String INIT = HttpEndpointsIT.INIT;
    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"fixture__echo\","
            + "\"arguments\":{\"text\":\"hi\"}}}";

    @TempDir
    static Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Process provider;
    private String issuer;
    private HttpGateway gateway;
    private HttpServer stalling;
    private final AtomicInteger jwksRequests = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpGateway stalled;
    private final List<String> presented = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        provider = new ProcessBuilder(Repo.tool("node"), NodeClient.NODE_DIR.resolve("oidc.mjs").toString(), "--audience", AUDIENCE,
                "--resource", RESOURCE, "--scope", "mcp:tools").directory(NodeClient.NODE_DIR.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(provider.getInputStream(), StandardCharsets.UTF_8));
        issuer = NodeClient.JSON.readTree(out.readLine()).get("issuer").asText();

        stalling = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stalling.setExecutor(Executors.newCachedThreadPool());
        String stallingIssuer = "http://127.0.0.1:" + stalling.getAddress().getPort();
        stalling.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            byte[] body = new byte[0];
            int status = 404;
            if (path.equals("/.well-known/openid-configuration")) {
                body = ("{\"issuer\":\"" + stallingIssuer + "\",\"jwks_uri\":\"" + stallingIssuer + "/jwks\"}").getBytes(StandardCharsets.UTF_8);
                status = 200;
            } else if (path.equals("/jwks")) {
                jwksRequests.incrementAndGet();
                try {
                    release.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        stalling.start();

        Path tokens = Files.writeString(dir.resolve("tokens.yaml"), """
                - name: alice
                  token: "${ALICE_TOKEN}"
                  profiles: [all]
                - name: bob
                  sha256: "%s"
                """.formatted(org.metaruntime.gateway.internal.auth.Digests.sha256Hex(BOB)));
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        CompletableFuture<HttpGateway> second = CompletableFuture.supplyAsync(() -> {
            try {
                return HttpGateway.start(List.of("--manifests", manifests.toString(), "--oauth-issuer", stallingIssuer,
                        "--oauth-audience", AUDIENCE));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        gateway = HttpGateway.start(List.of("--manifests", manifests.toString(), "--tokens", tokens.toString(),
                "--oauth-issuer", issuer, "--oauth-audience", AUDIENCE, "--oauth-scopes", "mcp:tools",
                "--public-url", RESOURCE, "--log-level", "debug"), Map.of("ALICE_TOKEN", ALICE));
        stalled = second.get(150, TimeUnit.SECONDS);
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (gateway != null) {
                gateway.stopCleanly();
                String log = gateway.stderr();
                for (String token : presented) {
                    assertThat(log).as("the gateway's log").doesNotContain(token);
                    String signature = token.substring(token.lastIndexOf('.') + 1);
                    if (signature.length() > 8) {
                        assertThat(log).doesNotContain(signature);
                    }
                }
                assertThat(log).doesNotContain(ALICE).doesNotContain(BOB);
            }
            if (stalled != null) {
                stalled.stopCleanly();
            }
        } finally {
            release.countDown();
            if (stalling != null) {
                stalling.stop(0);
            }
            if (provider != null) {
                provider.getOutputStream().close();
                if (!provider.waitFor(30, TimeUnit.SECONDS)) {
                    provider.destroyForcibly();
                }
            }
        }
        LeakCheck.processes().assertNothingLeft();
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

    /** An access token of the provider, by client credentials for the gateway's resource. */
    private String accessToken() throws Exception {
        String basic = Base64.getEncoder().encodeToString("ci-client:ci-secret-0123456789".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(issuer + "/token"))
                .header("Authorization", "Basic " + basic).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&scope=mcp%3Atools&resource="
                        + java.net.URLEncoder.encode(RESOURCE, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        String token = NodeClient.JSON.readTree(answer.body()).get("access_token").asText();
        presented.add(token);
        return token;
    }

    private String forged(String kind) throws Exception {
        HttpResponse<String> answer = get(issuer + "/test/forge?case=" + kind);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        presented.add(answer.body());
        return answer.body();
    }

    private static String sessionOf(HttpResponse<String> initialized) {
        return initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    @Test
    void theIssuerIsDiscoveredAtStart() {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(gateway.stderr())
                .contains("issuer " + issuer + ": 2 keys fetched from " + issuer + "/jwks"));
    }

    @Test
    void theProtectedResourceMetadataNeedsNoToken() throws Exception {
        for (String path : new String[] {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}) {
            HttpResponse<String> answer = get(gateway.base() + path);
            assertThat(answer.statusCode()).as(path).isEqualTo(200);
            assertThat(NodeClient.JSON.readTree(answer.body())).isEqualTo(NodeClient.JSON.readTree("{\"resource\":\"" + RESOURCE
                    + "\",\"authorization_servers\":[\"" + issuer + "\"],\"scopes_supported\":[\"mcp:tools\"],"
                    + "\"bearer_methods_supported\":[\"header\"],\"resource_name\":\"meta-gateway\"}"));
        }
    }

    @Test
    void anAccessTokenOfTheProviderIsAPrincipal() throws Exception {
        String token = accessToken();
        HttpResponse<String> initialized = post(gateway.url(), INIT, "Authorization", "Bearer " + token);
        assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
        HttpResponse<String> called = post(gateway.url(), CALL, "Authorization", "Bearer " + token,
                "Mcp-Session-Id", sessionOf(initialized));
        assertThat(called.statusCode()).isEqualTo(200);
        assertThat(called.body()).contains("hi");
        String fresh = accessToken();
        assertThat(fresh).isNotEqualTo(token);
        HttpResponse<String> again = post(gateway.url(), CALL, "Authorization", "Bearer " + fresh, "Mcp-Session-Id",
                sessionOf(initialized));
        assertThat(again.statusCode()).as("the same principal with a fresh token keeps its session").isEqualTo(200);
        HttpResponse<String> forgedResource = post(gateway.url(), INIT, "Authorization", "Bearer " + forged("resource-audience"));
        assertThat(forgedResource.statusCode()).as("aud: the resource URL").isEqualTo(200);
    }

    @Test
    void withoutACredentialTheAnswerIs401WithTheChallenge() throws Exception {
        for (String[] headers : new String[][] {{}, {"Authorization", "Basic YTpi"}}) {
            HttpResponse<String> answer = post(gateway.url(), INIT, headers);
            assertThat(answer.statusCode()).isEqualTo(401);
            assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue(
                    "Bearer resource_metadata=\"" + METADATA_URL + "\", scope=\"mcp:tools\"");
            JsonNode body = NodeClient.JSON.readTree(answer.body());
            assertThat(body.get("error").asText()).isEqualTo("unauthorized");
            assertThat(body.get("error_description").asText()).isNotBlank();
        }
        assertThat(get(gateway.base() + "/healthz").statusCode()).isEqualTo(200);
        assertThat(get(gateway.base() + "/metrics").statusCode()).isEqualTo(401);
    }

    @Test
    void everyBadTokenIs401InvalidTokenWithoutEchoingIt() throws Exception {
        List<String> bad = new ArrayList<>();
        for (String kind : new String[] {"expired", "wrong-audience", "wrong-issuer", "alg-none", "hs256", "wrong-key", "unknown-kid"}) {
            bad.add(forged(kind));
        }
        bad.add("not-a-known-token-value");
        bad.add("eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2ln");
        for (String token : bad) {
            HttpResponse<String> answer = post(gateway.url(), INIT, "Authorization", "Bearer " + token);
            assertThat(answer.statusCode()).as(token).isEqualTo(401);
            assertThat(answer.headers().firstValue("WWW-Authenticate")).as(token).hasValue(
                    "Bearer error=\"invalid_token\", resource_metadata=\"" + METADATA_URL + "\", scope=\"mcp:tools\"");
            JsonNode body = NodeClient.JSON.readTree(answer.body());
            assertThat(body.get("error").asText()).isEqualTo("invalid_token");
            assertThat(answer.body()).doesNotContain(token);
        }
    }

    @Test
    void aTokenWithoutTheRequiredScopeIs403() throws Exception {
        HttpResponse<String> answer = post(gateway.url(), INIT, "Authorization", "Bearer " + forged("no-scope"));
        assertThat(answer.statusCode()).isEqualTo(403);
        assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue(
                "Bearer error=\"insufficient_scope\", scope=\"mcp:tools\", resource_metadata=\"" + METADATA_URL + "\"");
        assertThat(NodeClient.JSON.readTree(answer.body()).get("error").asText()).isEqualTo("insufficient_scope");
    }

    @Test
    void aSessionBelongsToThePrincipalThatOpenedIt() throws Exception {
        HttpResponse<String> alice = post(gateway.url(), INIT, "Authorization", "Bearer " + ALICE);
        assertThat(alice.statusCode()).isEqualTo(200);
        String session = sessionOf(alice);
        assertThat(post(gateway.url(), CALL, "Authorization", "Bearer " + BOB, "Mcp-Session-Id", session).statusCode())
                .as("another named token").isEqualTo(404);
        assertThat(post(gateway.url(), CALL, "Authorization", "Bearer " + accessToken(), "Mcp-Session-Id", session).statusCode())
                .as("an OAuth principal").isEqualTo(404);
        assertThat(get(gateway.url(), "Authorization", "Bearer " + BOB, "Mcp-Session-Id", session, "Accept", "text/event-stream")
                .statusCode()).isEqualTo(404);
        HttpResponse<String> own = post(gateway.url(), CALL, "Authorization", "Bearer " + ALICE, "Mcp-Session-Id", session);
        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(own.body()).contains("hi");

        // Legacy HTTP+SSE: bob's POST to alice's session is unknown too.
        HttpResponse<java.io.InputStream> stream = http.send(HttpRequest.newBuilder(URI.create(gateway.base() + "/sse"))
                .header("Authorization", "Bearer " + ALICE).header("Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader events = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            String endpoint = Stream.generate(() -> {
                try {
                    return events.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).filter(line -> line == null || line.startsWith("data: /message")).findFirst().orElseThrow();
            String message = gateway.base() + endpoint.substring("data: ".length());
            assertThat(post(message, CALL, "Authorization", "Bearer " + BOB).statusCode()).isEqualTo(404);
            assertThat(post(message, CALL, "Authorization", "Bearer " + ALICE).statusCode()).isEqualTo(202);
        }
    }

    @Test
    void noPodInheritsTheVariableOfANamedToken() throws Exception {
        HttpResponse<String> alice = post(gateway.url(), INIT, "Authorization", "Bearer " + ALICE);
        assertThat(post(gateway.url(), CALL, "Authorization", "Bearer " + ALICE, "Mcp-Session-Id", sessionOf(alice)).body())
                .contains("hi");
        List<String> environments = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.resolve("pids"))) {
            for (Path pid : files.toList()) {
                Path environ = Path.of("/proc", pid.getFileName().toString(), "environ");
                if (Files.exists(environ)) {
                    environments.add(new String(Files.readAllBytes(environ), StandardCharsets.UTF_8).replace('\0', '\n'));
                }
            }
        }
        assertThat(environments).isNotEmpty().allSatisfy(environment -> assertThat(environment).doesNotContain(ALICE));
    }

    @Test
    void anIssuerWhoseKeysNeverComeCostsABoundedWaitAnd503() throws Exception {
        String token = forged("expired");
        ExecutorService clients = Executors.newFixedThreadPool(12);
        try {
            long started = System.nanoTime();
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                answers.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return post(stalled.url(), INIT, "Authorization", "Bearer " + token);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, clients));
            }
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                HttpResponse<String> response = answer.get(30, TimeUnit.SECONDS);
                assertThat(response.statusCode()).isEqualTo(503);
                assertThat(response.headers().firstValue("Retry-After")).hasValue("5");
                assertThat(NodeClient.JSON.readTree(response.body()).get("error").asText()).isEqualTo("temporarily_unavailable");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("one bounded fetch, not one per request")
                    .isLessThan(Duration.ofSeconds(15));
            assertThat(jwksRequests.get()).as("JWKS fetches (at start, and at most one retry)").isBetween(1, 3);
            assertThat(stalled.stderr()).as("discovery at start").contains("cannot be reached")
                    .contains("requests with a token are answered 503 until it can");
            assertThat(post(stalled.url(), INIT).statusCode()).isEqualTo(401);
            assertThat(get(stalled.base() + "/healthz").statusCode()).isEqualTo(200);
        } finally {
            clients.shutdownNow();
        }
    }
}
