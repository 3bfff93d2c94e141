package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
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
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.spi.AuthResult;
import org.metaruntime.gateway.spi.Principal;
import org.metaruntime.testing.LeakCheck;

/**
 * The embedded gateway with several principals: {@code /metrics} and the event log only for admins (the profile
 * {@code all}), {@code /healthz} for anyone; a host's {@link org.metaruntime.gateway.spi.Authenticator} asked in the
 * order added, its rejection answered as it says, and one that throws refusing the request.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpPrincipalsTest {

    private static final String ADMIN = "admin-token-0123456789";
    private static final String VIEWER = "viewer-token-0123456789";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private HttpResponse<String> get(String url, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A policy whose profile readonly (also the default) is not an admin. */
    private GatewayPolicy readonlyPolicy() throws Exception {
        Path file = dir.resolve("policy.yaml");
        Files.writeString(file, "apiVersion: mcp-meta/v1\nkind: GatewayPolicy\ndefaultProfile: readonly\n"
                + "profiles:\n  readonly:\n    tools: [\"*__get_*\"]\n");
        return GatewayPolicy.read(file);
    }

    @Test
    void onlyAdminsReadMetricsAndTheEventLog() throws Exception {
        try (EventLog log = EventLogs.persistentState(dir.resolve("state"));
             MetaGateway gateway = MetaGateway.builder()
                     .options(GatewayOptions.builder().policy(readonlyPolicy()).build())
                     .manifests(NodeClient.manifests(dir, dir.resolve("pids"), "fixture")).build()) {
            HttpOptions.Builder options = HttpOptions.builder()
                    .authenticator(request -> request.header("X-Test-Refuse").isPresent()
                            ? new AuthResult.Rejected(403, "Bearer error=\"insufficient_scope\"") : new AuthResult.Abstain())
                    .authenticator(request -> {
                        if (request.header("X-Test-Throw").isPresent()) {
                            throw new IllegalStateException("broken authenticator");
                        }
                        return new AuthResult.Abstain();
                    })
                    .authenticator(Authenticators.namedTokens(List.of(NamedToken.of("ops", ADMIN, List.of("all")),
                            NamedToken.of("viewer", VIEWER, List.of("readonly")))))
                    .authenticator(request -> request.header("X-Test-User")
                            .<AuthResult>map(user -> new AuthResult.Authenticated(new Principal(user, "header", List.of(), Map.of())))
                            .orElseGet(AuthResult.Abstain::new));
            Serving serving = gateway.serveHttp(new InetSocketAddress("127.0.0.1", 0),
                    EventEndpoints.mount(options, log).build());
            try {
                String base = "http://127.0.0.1:" + serving.port();
                for (String path : new String[] {"/metrics", "/meta/events", "/meta/mob_events"}) {
                    HttpResponse<String> viewer = get(base + path, "Authorization", "Bearer " + VIEWER);
                    assertThat(viewer.statusCode()).as(path).isEqualTo(403);
                    assertThat(viewer.body()).contains("\"error\":\"insufficient_scope\"").doesNotContain(VIEWER);
                    assertThat(get(base + path, "Authorization", "Bearer " + ADMIN).statusCode()).as(path).isEqualTo(200);
                    assertThat(get(base + path).statusCode()).as(path).isEqualTo(401);
                }
                assertThat(get(base + "/metrics", "X-Test-User", "carol").statusCode())
                        .as("a host's principal without profiles gets the default profile, not an admin").isEqualTo(403);
                assertThat(get(base + "/healthz").statusCode()).isEqualTo(200);

                HttpResponse<String> refused = get(base + "/metrics", "X-Test-Refuse", "1", "Authorization", "Bearer " + ADMIN);
                assertThat(refused.statusCode()).as("the first authenticator that does not abstain decides").isEqualTo(403);
                assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"insufficient_scope\"");
                HttpResponse<String> thrown = get(base + "/metrics", "X-Test-Throw", "1", "Authorization", "Bearer " + ADMIN);
                assertThat(thrown.statusCode()).isEqualTo(401);
                assertThat(thrown.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"invalid_token\"");
            } finally {
                serving.close();
            }
        }
    }
}
