package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.NamedToken;
import org.metaruntime.gateway.OAuthOptions;
import org.metaruntime.gateway.internal.auth.IssuerKeys;
import org.metaruntime.gateway.internal.auth.NamedTokens;
import org.metaruntime.gateway.internal.auth.OAuthTokens;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.manifest.PolicyReader;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.internal.pipeline.AuditLog;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.internal.trace.GatewayTracer;
import org.metaruntime.gateway.spi.AuthRequest;
import org.metaruntime.gateway.spi.AuthResult;
import org.metaruntime.gateway.spi.Principal;
import org.metaruntime.supervisor.InFlight;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the gateway's policy costs one {@code tools/call}, through the whole call pipeline (the dispatcher, the stages,
 * the dispatch to a pod that answers at once, the record) with the tracer the gateway runs when nothing is exported:
 * <ul>
 *   <li>{@code open}: no policy, no audit (the gateway with no options);</li>
 *   <li>{@code tokenProfile}: the same without the audit (what the stages cost the call's thread alone);</li>
 *   <li>{@code tokenProfileAudit}: the bearer checked against named tokens, a policy profile chosen by the token's
 *       name resolving and authorizing the tool, and every call audited to the SQLite event log;</li>
 *   <li>{@code jwt}: an RS256 access token validated with the issuer's key cached (signature, issuer, audience,
 *       expiry), alone.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(1)
public class PipelineBenchmark {

    private static final URI ISSUER = URI.create("https://login.example.com/realms/tools");
    private static final URI RESOURCE = URI.create("https://gateway.example.com/mcp");
    private static final String SECRET = "bench-token-0123456789abcdef0123456789";

    private Path dir;
    private EventLog log;
    private Served open;
    private Served policed;
    private Served profiled;
    private NamedTokens tokens;
    private AuthRequest tokenRequest;
    private OAuthTokens oauth;
    private AuthRequest jwtRequest;

    /** One gateway server over a pod that answers at once, and a client session on it. */
    private static final class Served implements AutoCloseable {
        final GatewayServer server;
        final ClientSession session;
        private final AtomicReference<CompletableFuture<JsonNode>> answer = new AtomicReference<>();
        private long ids;

        Served(CallSettings settings, Principal caller) {
            PodManifest pod = new PodManifest("files", null, Path.of("files.yaml"), 1, List.of("true"), null, Path.of("."),
                    Map.of(), Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1), false,
                    PodManifest.HealthCheck.DISABLED, List.of(tool("read")), Map.of(), PodManifest.Protocol.MCP, null,
                    Set.of(), null, Set.of("fs"), null);
            Catalog catalog = new Catalog(List.of(pod), List.of(), "__");
            server = new GatewayServer(catalog, new PodSet(catalog.pods(), (manifest, threads, withheld) ->
                    new AnsweringPods(manifest)), 4, settings);
            server.start();
            session = new ClientSession("bench", message -> {
                CompletableFuture<JsonNode> waiting = answer.get();
                if (waiting != null && message.has("id")) {
                    waiting.complete(message);
                }
            }, true, caller);
        }

        JsonNode call() throws Exception {
            CompletableFuture<JsonNode> waiting = new CompletableFuture<>();
            answer.set(waiting);
            ObjectNode message = JsonRpc.NODES.objectNode().put("jsonrpc", "2.0").put("id", ++ids).put("method", "tools/call");
            ObjectNode params = message.putObject("params").put("name", "files__read");
            params.putObject("arguments").put("path", "/srv/data/report.txt").put("limit", 50);
            server.dispatcher().onMessage(session, message);
            JsonNode got = waiting.get(10, TimeUnit.SECONDS);
            if (!got.has("result")) {
                throw new IllegalStateException("the call failed: " + got);
            }
            return got;
        }

        @Override
        public void close() {
            server.close();
        }
    }

    private static DeclaredTool tool(String name) {
        ObjectNode definition = JsonRpc.NODES.objectNode().put("description", "tool " + name);
        definition.putObject("inputSchema").put("type", "object");
        return new DeclaredTool(name, 1, definition, null, "");
    }

    /** A pod backend whose pods answer every call at once with a short text. */
    private static final class AnsweringPods implements PodBackend {
        private final PodManifest manifest;

        AnsweringPods(PodManifest manifest) {
            this.manifest = manifest;
        }

        @Override
        public Pod pod(String name) {
            return new Pod() {
                @Override
                public String name() {
                    return manifest.name();
                }

                @Override
                public boolean running() {
                    return true;
                }

                @Override
                public CompletableFuture<Void> start() {
                    return CompletableFuture.completedFuture(null);
                }

                @Override
                public List<ObjectNode> liveTools() {
                    return new ArrayList<>();
                }

                @Override
                public InFlight<JsonNode> call(String tool, JsonNode arguments, CallContext context) {
                    ObjectNode result = JsonRpc.NODES.objectNode();
                    result.putArray("content").addObject().put("type", "text").put("text", "done");
                    context.scope().end();
                    return InFlight.of(CompletableFuture.completedFuture(result), () -> { });
                }

                @Override
                public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout) {
                    return CompletableFuture.completedFuture(JsonRpc.NODES.objectNode());
                }

                @Override
                public PodState state() {
                    return new PodState("Running", OptionalLong.empty(), 0, null, "");
                }
            };
        }

        @Override
        public void listen(PodListener listener) {
        }

        @Override
        public void servePodCalls(PodCallHandler handler) {
        }

        @Override
        public void close() {
        }
    }

    @Setup
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("pipeline-bench");
        CallSettings base = CallSettings.defaults().withTracer(GatewayTracer.unexported());
        open = new Served(base, Principals.LOCAL);

        tokens = new NamedTokens(List.of(NamedToken.of("reporting", SECRET, List.of("readers"))));
        tokenRequest = new AuthRequest("POST", "/mcp", Map.of("Authorization", List.of("Bearer " + SECRET)), null);
        Principal principal = ((AuthResult.Authenticated) tokens.authenticate(tokenRequest)).principal();
        Path policy = Files.writeString(dir.resolve("policy.yaml"), """
                apiVersion: mcp-meta/v1
                kind: GatewayPolicy
                profiles:
                  readers:
                    tools: ["files__*"]
                    tags: [fs]
                    rateLimit: { rate: 100000000/s, burst: 1000000 }
                """);
        log = EventLogs.persistentState(dir.resolve("state"));
        profiled = new Served(base.withAccess(new Access(PolicyReader.read(policy), null)), principal);
        policed = new Served(base.withAccess(new Access(PolicyReader.read(policy), null))
                .withListeners(List.of(new AuditLog(log, System::currentTimeMillis)), false), principal);

        RSAKey rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        String jwks = new JWKSet(List.of(rsa.toPublicJWK())).toString();
        IssuerKeys keys = new IssuerKeys(ISSUER, Clock.systemUTC(), (uri, timeout) -> {
            if (uri.toString().equals(ISSUER + "/.well-known/openid-configuration")) {
                return "{\"issuer\":\"" + ISSUER + "\",\"jwks_uri\":\"https://login.example.com/keys\"}";
            }
            if (uri.toString().equals("https://login.example.com/keys")) {
                return jwks;
            }
            throw new IOException("HTTP 404");
        });
        oauth = new OAuthTokens(OAuthOptions.builder().issuer(ISSUER).audience("meta-gateway").build(), RESOURCE,
                Clock.systemUTC(), keys);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa-1").build(),
                new JWTClaimsSet.Builder().issuer(ISSUER.toString()).audience("meta-gateway").subject("svc-reporting")
                        .expirationTime(new Date(System.currentTimeMillis() + 3_600_000)).claim("scope", "mcp:tools")
                        .build());
        jwt.sign(new RSASSASigner(rsa));
        jwtRequest = new AuthRequest("POST", "/mcp", Map.of("Authorization", List.of("Bearer " + jwt.serialize())), null);
        if (!(oauth.authenticate(jwtRequest) instanceof AuthResult.Authenticated)) {
            throw new IllegalStateException("the benchmark's JWT is refused");
        }
        open.call();
        profiled.call();
        policed.call();
    }

    @TearDown
    public void tearDown() throws Exception {
        open.close();
        profiled.close();
        policed.close();
        log.close();
    }

    @Benchmark
    public JsonNode open() throws Exception {
        return open.call();
    }

    @Benchmark
    public JsonNode tokenProfile() throws Exception {
        if (!(tokens.authenticate(tokenRequest) instanceof AuthResult.Authenticated)) {
            throw new IllegalStateException("the token is refused");
        }
        return profiled.call();
    }

    @Benchmark
    public JsonNode tokenProfileAudit() throws Exception {
        if (!(tokens.authenticate(tokenRequest) instanceof AuthResult.Authenticated)) {
            throw new IllegalStateException("the token is refused");
        }
        return policed.call();
    }

    @Benchmark
    public AuthResult jwt() {
        return oauth.authenticate(jwtRequest);
    }
}
