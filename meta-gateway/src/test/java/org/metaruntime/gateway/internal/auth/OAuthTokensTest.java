package org.metaruntime.gateway.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.OAuthOptions;
import org.metaruntime.gateway.spi.AuthResult;
import org.metaruntime.gateway.spi.Principal;
import org.metaruntime.supervisor.internal.manual.ManualClock;

/**
 * OAuth access tokens against an issuer served by a fake fetcher, on a manual clock: signature, algorithm, issuer,
 * audience (or the resource URL), expiry and not-before with the clock skew, the principal's name, scopes, key ids
 * fetched again at most once every 5 s, and 503 while the issuer was never reached.
 */
class OAuthTokensTest {

    private static final URI ISSUER = URI.create("https://login.example.com/realms/tools");
    private static final URI RESOURCE = URI.create("https://gateway.example.com/mcp");
    private static final String METADATA = "https://gateway.example.com/.well-known/oauth-protected-resource/mcp";

    private final ManualClock clock = new ManualClock();
    private final List<URI> fetched = Collections.synchronizedList(new ArrayList<>());
    private RSAKey rsa;
    private ECKey ec;
    private volatile String jwks;
    private volatile boolean issuerUp = true;
    private OAuthTokens tokens;

    @BeforeEach
    void issuer() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        jwks = new JWKSet(List.of(rsa.toPublicJWK(), ec.toPublicJWK())).toString();
        tokens = tokens(OAuthOptions.builder().issuer(ISSUER).audience("meta-gateway").build());
    }

    private OAuthTokens tokens(OAuthOptions options) {
        IssuerKeys keys = new IssuerKeys(ISSUER, clock, (uri, timeout) -> {
            fetched.add(uri);
            if (!issuerUp) {
                throw new IOException("connection refused");
            }
            if (uri.toString().equals("https://login.example.com/.well-known/oauth-authorization-server/realms/tools")) {
                throw new IOException("HTTP 404");
            }
            if (uri.toString().equals(ISSUER + "/.well-known/openid-configuration")) {
                return "{\"issuer\":\"" + ISSUER + "\",\"jwks_uri\":\"https://login.example.com/keys\"}";
            }
            if (uri.toString().equals("https://login.example.com/keys")) {
                return jwks;
            }
            throw new IOException("HTTP 404");
        });
        return new OAuthTokens(options, RESOURCE, clock, keys);
    }

    private JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().issuer(ISSUER.toString()).audience("meta-gateway").subject("svc-reporting")
                .expirationTime(Date.from(clock.instant().plusSeconds(300))).claim("scope", "mcp:tools openid");
    }

    private String rs256(JWTClaimsSet claims) throws Exception {
        return rs256(claims, rsa, "rsa-1");
    }

    private static String rs256(JWTClaimsSet claims, RSAKey key, String kid) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid).type(JOSEObjectType.JWT).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private AuthResult check(UnaryOperator<JWTClaimsSet.Builder> change) throws Exception {
        return tokens.check(rs256(change.apply(claims()).build()));
    }

    private static final AuthResult.Rejected INVALID = new AuthResult.Rejected(401,
            "Bearer error=\"invalid_token\", resource_metadata=\"" + METADATA + "\"");

    @Test
    void aValidTokenIsItsSubject() throws Exception {
        AuthResult result = check(c -> c);
        assertThat(result).isInstanceOf(AuthResult.Authenticated.class);
        Principal principal = ((AuthResult.Authenticated) result).principal();
        assertThat(principal.name()).isEqualTo("svc-reporting");
        assertThat(principal.auth()).isEqualTo("oauth");
        assertThat(principal.profiles()).isEmpty();
        assertThat(principal.claims()).containsEntry("sub", "svc-reporting").containsEntry("scope", "mcp:tools openid");
        assertThat(fetched).extracting(URI::toString).containsExactly(
                "https://login.example.com/.well-known/oauth-authorization-server/realms/tools",
                ISSUER + "/.well-known/openid-configuration", "https://login.example.com/keys");
    }

    @Test
    void es256WithoutAKeyIdIsCheckedByKeyType() throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).build(), claims().build());
        jwt.sign(new ECDSASigner(ec));
        assertThat(tokens.check(jwt.serialize())).isInstanceOf(AuthResult.Authenticated.class);
    }

    @Test
    void theClientIdNamesAPrincipalWithoutSubject() throws Exception {
        AuthResult result = check(c -> c.subject(null).claim("client_id", "ci-client"));
        assertThat(((AuthResult.Authenticated) result).principal().name()).isEqualTo("ci-client");
        assertThat(check(c -> c.subject(null))).isEqualTo(INVALID);
    }

    @Test
    void issuerAudienceAndTimesAreChecked() throws Exception {
        assertThat(check(c -> c.issuer("https://login.example.com/realms/other"))).isEqualTo(INVALID);
        assertThat(check(c -> c.issuer(ISSUER + "/"))).as("exact issuer").isEqualTo(INVALID);
        assertThat(check(c -> c.audience("someone-else"))).isEqualTo(INVALID);
        assertThat(check(c -> c.audience(List.of("someone-else", RESOURCE.toString()))))
                .as("the resource URL as audience").isInstanceOf(AuthResult.Authenticated.class);
        assertThat(check(c -> c.audience((String) null))).isEqualTo(INVALID);
        assertThat(check(c -> c.expirationTime(null))).isEqualTo(INVALID);
        assertThat(check(c -> c.expirationTime(Date.from(clock.instant().minusSeconds(59)))))
                .as("expired within the skew").isInstanceOf(AuthResult.Authenticated.class);
        assertThat(check(c -> c.expirationTime(Date.from(clock.instant().minusSeconds(61))))).isEqualTo(INVALID);
        assertThat(check(c -> c.notBeforeTime(Date.from(clock.instant().plusSeconds(59)))))
                .isInstanceOf(AuthResult.Authenticated.class);
        assertThat(check(c -> c.notBeforeTime(Date.from(clock.instant().plusSeconds(61))))).isEqualTo(INVALID);
    }

    @Test
    void aTokenExpiresWithTheClock() throws Exception {
        String token = rs256(claims().build());
        assertThat(tokens.check(token)).isInstanceOf(AuthResult.Authenticated.class);
        clock.advance(Duration.ofSeconds(300 + 60));
        assertThat(tokens.check(token)).isInstanceOf(AuthResult.Authenticated.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(tokens.check(token)).isEqualTo(INVALID);
    }

    @Test
    void onlyRs256AndEs256SignedByAKeyOfTheIssuerAreAccepted() throws Exception {
        String none = new PlainJWT(claims().build()).serialize();
        assertThat(OAuthTokens.looksLikeJwt(none)).isTrue();
        assertThat(tokens.check(none)).isEqualTo(INVALID);

        SignedJWT hs = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(), claims().build());
        hs.sign(new MACSigner(new byte[32]));
        assertThat(tokens.check(hs.serialize())).isEqualTo(INVALID);

        SignedJWT ps = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.PS256).keyID("rsa-1").build(), claims().build());
        ps.sign(new RSASSASigner(rsa));
        assertThat(tokens.check(ps.serialize())).isEqualTo(INVALID);

        RSAKey other = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        assertThat(tokens.check(rs256(claims().build(), other, "rsa-1"))).as("wrong key, known kid").isEqualTo(INVALID);

        String valid = rs256(claims().build());
        String tampered = valid.substring(0, valid.lastIndexOf('.') + 1) + "AAAA" + valid.substring(valid.lastIndexOf('.') + 5);
        assertThat(tokens.check(tampered)).isEqualTo(INVALID);
    }

    @Test
    void anUnknownKeyIdFetchesTheKeysAgainAtMostOnceEveryFiveSeconds() throws Exception {
        assertThat(check(c -> c)).isInstanceOf(AuthResult.Authenticated.class);
        int before = fetched.size();
        RSAKey rotated = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
        String token = rs256(claims().build(), rotated, "rsa-2");

        assertThat(tokens.check(token)).as("within 5 s of the last fetch").isEqualTo(INVALID);
        assertThat(fetched).hasSize(before);

        jwks = new JWKSet(List.of(rsa.toPublicJWK(), rotated.toPublicJWK())).toString();
        clock.advance(Duration.ofSeconds(5));
        assertThat(tokens.check(token)).as("fetched again").isInstanceOf(AuthResult.Authenticated.class);
        assertThat(fetched).hasSize(before + 1);
        assertThat(fetched.get(before).toString()).isEqualTo("https://login.example.com/keys");

        String unknown = rs256(claims().build(), new RSAKeyGenerator(2048).keyID("rsa-3").generate(), "rsa-3");
        clock.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 10; i++) {
            assertThat(tokens.check(unknown)).isEqualTo(INVALID);
        }
        assertThat(fetched).as("no fetch within 5 s").hasSize(before + 1);
    }

    @Test
    void whileTheIssuerWasNeverReachedTokensGet503AndDiscoveryIsRetriedEveryFiveSeconds() throws Exception {
        issuerUp = false;
        String token = rs256(claims().build());
        assertThat(tokens.check(token)).isEqualTo(new AuthResult.Rejected(503, null));
        int attempts = fetched.size();
        assertThat(tokens.check(token)).isEqualTo(new AuthResult.Rejected(503, null));
        assertThat(fetched).as("not again within 5 s").hasSize(attempts);

        issuerUp = true;
        clock.advance(Duration.ofSeconds(5));
        assertThat(tokens.check(token)).isInstanceOf(AuthResult.Authenticated.class);

        issuerUp = false;
        clock.advance(Duration.ofSeconds(10));
        assertThat(tokens.check(token)).as("cached keys outlive the issuer").isInstanceOf(AuthResult.Authenticated.class);
    }

    @Test
    void aMetadataDocumentOfAnotherIssuerIsNotUsed() throws Exception {
        IssuerKeys keys = new IssuerKeys(ISSUER, clock, (uri, timeout) -> "{\"issuer\":\"https://evil.example.com\","
                + "\"jwks_uri\":\"https://evil.example.com/keys\"}");
        assertThat(new OAuthTokens(OAuthOptions.builder().issuer(ISSUER).audience("meta-gateway").build(), RESOURCE, clock, keys)
                .check(rs256(claims().build()))).isEqualTo(new AuthResult.Rejected(503, null));
    }

    @Test
    void aTokenWithoutARequiredScopeGets403() throws Exception {
        tokens = tokens(OAuthOptions.builder().issuer(ISSUER).audience("meta-gateway").requiredScopes("mcp:tools, mcp:admin").build());
        AuthResult.Rejected insufficient = new AuthResult.Rejected(403, "Bearer error=\"insufficient_scope\", "
                + "scope=\"mcp:tools mcp:admin\", resource_metadata=\"" + METADATA + "\"");
        assertThat(check(c -> c)).isEqualTo(insufficient);
        assertThat(check(c -> c.claim("scope", "mcp:admin mcp:tools"))).isInstanceOf(AuthResult.Authenticated.class);
        assertThat(check(c -> c.claim("scope", null).claim("scp", List.of("mcp:tools", "mcp:admin"))))
                .isInstanceOf(AuthResult.Authenticated.class);
        assertThat(check(c -> c.claim("scope", null).claim("scp", List.of("mcp:tools")))).isEqualTo(insufficient);
        assertThat(check(c -> c.audience("someone-else"))).as("invalid before insufficient").isEqualTo(new AuthResult.Rejected(401,
                "Bearer error=\"invalid_token\", resource_metadata=\"" + METADATA + "\", scope=\"mcp:tools mcp:admin\""));
    }

    @Test
    void bearerValuesThatAreNoJwtAreLeftToTheNextAuthenticator() {
        assertThat(tokens.authenticate(NamedTokensFileTest.bearer("not-a-jwt-token-value"))).isInstanceOf(AuthResult.Abstain.class);
        assertThat(tokens.authenticate(NamedTokensFileTest.bearer(null))).isInstanceOf(AuthResult.Abstain.class);
        assertThat(fetched).isEmpty();
    }

    @Test
    void theMetadataUrlsOfAnIssuer() {
        assertThat(IssuerKeys.metadataUrls(URI.create("https://login.example.com"))).extracting(URI::toString).containsExactly(
                "https://login.example.com/.well-known/oauth-authorization-server",
                "https://login.example.com/.well-known/openid-configuration");
        assertThat(IssuerKeys.metadataUrls(URI.create("http://127.0.0.1:4000/oidc/"))).extracting(URI::toString).containsExactly(
                "http://127.0.0.1:4000/.well-known/oauth-authorization-server/oidc",
                "http://127.0.0.1:4000/oidc/.well-known/openid-configuration");
    }

    @Test
    void theChainTriesTheSingleTokenThenNamedTokensThenOAuth() throws Exception {
        String single = "single-token-0123456789";
        AuthChain chain = new AuthChain(List.of(new StaticToken(single),
                new NamedTokens(List.of(org.metaruntime.gateway.NamedToken.of("alice", "alice-token-0123456789", List.of()))),
                tokens), new ProtectedResource(RESOURCE, OAuthOptions.builder().issuer(ISSUER).audience("a").build()).challenge());
        assertThat(chain.authenticate(NamedTokensFileTest.bearer(single)))
                .isEqualTo(new AuthResult.Authenticated(new Principal("token", "token", List.of("all"), Map.of())));
        assertThat(((AuthResult.Authenticated) chain.authenticate(NamedTokensFileTest.bearer("alice-token-0123456789")))
                .principal().auth()).isEqualTo("tokens");
        assertThat(((AuthResult.Authenticated) chain.authenticate(NamedTokensFileTest.bearer(rs256(claims().build()))))
                .principal().auth()).isEqualTo("oauth");
        assertThat(chain.authenticate(NamedTokensFileTest.bearer("nobody-knows-this-token")))
                .isEqualTo(new AuthResult.Rejected(401, "Bearer error=\"invalid_token\", resource_metadata=\"" + METADATA + "\""));
        assertThat(chain.authenticate(NamedTokensFileTest.bearer(null)))
                .isEqualTo(new AuthResult.Rejected(401, "Bearer resource_metadata=\"" + METADATA + "\""));
        assertThat(new AuthChain(List.of(new StaticToken(single)), Challenge.PLAIN).authenticate(NamedTokensFileTest.bearer(null)))
                .isEqualTo(new AuthResult.Rejected(401, "Bearer"));
    }
}
