package org.metaruntime.gateway.internal.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.metaruntime.gateway.OAuthOptions;
import org.metaruntime.gateway.spi.AuthRequest;
import org.metaruntime.gateway.spi.AuthResult;
import org.metaruntime.gateway.spi.Authenticator;
import org.metaruntime.gateway.spi.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OAuth 2.1 access tokens: a bearer value of the form of a JWT must be a compact JWS signed with {@code RS256} or
 * {@code ES256} by a key of the issuer's JWKS, with {@code iss} the issuer, {@code aud} naming the audience or the
 * resource URL, {@code exp} not more than the clock skew in the past, {@code nbf} (when present) not more than it in
 * the future, and {@code sub} or {@code client_id}; else 401 {@code invalid_token}. A valid token without a required
 * scope ({@code scope} string or {@code scp} array) gets 403 {@code insufficient_scope}; while the issuer's keys were
 * never fetched, 503. Other bearer values are left to the next authenticator. Nothing of a token but its
 * {@code iss}, {@code sub}/{@code client_id} and {@code kid} is logged. Thread-safe.
 */
public final class OAuthTokens implements Authenticator {

    private static final Logger log = LoggerFactory.getLogger(OAuthTokens.class);

    /** The principal's {@code auth}. */
    public static final String AUTH = "oauth";
    private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);
    private static final Pattern JWT_FORM = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]*");

    private final OAuthOptions options;
    private final String resource;
    private final Clock clock;
    private final IssuerKeys keys;
    private final Challenge challenge;

    public OAuthTokens(OAuthOptions options, URI resourceUrl, Clock clock, IssuerKeys keys) {
        this.options = options;
        this.resource = resourceUrl.toString();
        this.clock = clock;
        this.keys = keys;
        this.challenge = new ProtectedResource(resourceUrl, options).challenge();
    }

    /** Whether {@code value} has the form of a compact JWS (three base64url parts). */
    static boolean looksLikeJwt(String value) {
        return value.length() < 64 * 1024 && JWT_FORM.matcher(value).matches();
    }

    @Override
    public AuthResult authenticate(AuthRequest request) {
        Optional<String> bearer = request.bearerToken();
        if (bearer.isEmpty() || !looksLikeJwt(bearer.get())) {
            return new AuthResult.Abstain();
        }
        return check(bearer.get());
    }

    AuthResult check(String token) {
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token);
        } catch (ParseException | RuntimeException e) {
            return invalid("not a signed JWT", null, null);
        }
        JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
        String kid = jwt.getHeader().getKeyID();
        if (!ALGORITHMS.contains(alg)) {
            return invalid("algorithm " + alg + " is refused", kid, null);
        }
        List<JWK> candidates;
        try {
            candidates = keys.candidates(kid, alg);
        } catch (IssuerKeys.Unavailable e) {
            return new AuthResult.Rejected(503, null);
        }
        if (candidates.isEmpty()) {
            return invalid("no key of the issuer has this key id", kid, null);
        }
        if (!verified(jwt, candidates)) {
            return invalid("the signature does not verify", kid, null);
        }
        JWTClaimsSet claims;
        try {
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            return invalid("its claims are not a JSON object", kid, null);
        }
        String name = name(claims);
        String failure = failedCheck(claims, name);
        if (failure != null) {
            return invalid(failure, kid, claims);
        }
        if (!hasScopes(claims)) {
            log.debug("token of {} (kid {}) lacks a required scope", name, kid);
            return new AuthResult.Rejected(403, challenge.insufficientScope());
        }
        return new AuthResult.Authenticated(new Principal(name, AUTH, List.of(), claimsMap(claims)));
    }

    private static boolean verified(SignedJWT jwt, List<JWK> candidates) {
        for (JWK key : candidates) {
            try {
                JWSVerifier verifier = key instanceof RSAKey rsa ? new RSASSAVerifier(rsa) : new ECDSAVerifier((ECKey) key);
                if (jwt.verify(verifier)) {
                    return true;
                }
            } catch (JOSEException | RuntimeException e) {
                // a key that cannot verify this token (wrong curve, too short): try the next
            }
        }
        return false;
    }

    /** The first failed claim check, or null when all pass. */
    private String failedCheck(JWTClaimsSet claims, String name) {
        if (!options.issuer().toString().equals(claims.getIssuer())) {
            return "iss is not the issuer";
        }
        List<String> audience = claims.getAudience();
        if (audience == null || !(audience.contains(options.audience()) || audience.contains(resource))) {
            return "aud names neither the audience nor the resource";
        }
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null || exp.toInstant().plus(options.clockSkew()).isBefore(now)) {
            return exp == null ? "exp is missing" : "the token expired";
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && nbf.toInstant().minus(options.clockSkew()).isAfter(now)) {
            return "the token is not valid yet (nbf)";
        }
        if (name == null) {
            return "neither sub nor client_id";
        }
        return null;
    }

    private static String name(JWTClaimsSet claims) {
        String sub = claims.getSubject();
        if (sub != null && !sub.isEmpty()) {
            return sub;
        }
        Object clientId = claims.getClaim("client_id");
        return clientId instanceof String id && !id.isEmpty() ? id : null;
    }

    private boolean hasScopes(JWTClaimsSet claims) {
        if (options.requiredScopes().isEmpty()) {
            return true;
        }
        List<String> carried = new ArrayList<>();
        if (claims.getClaim("scope") instanceof String scope) {
            carried.addAll(List.of(scope.trim().split("\\s+")));
        }
        if (claims.getClaim("scp") instanceof List<?> scp) {
            scp.forEach(s -> carried.add(String.valueOf(s)));
        }
        return carried.containsAll(options.requiredScopes());
    }

    private static Map<String, Object> claimsMap(JWTClaimsSet claims) {
        Map<String, Object> out = new LinkedHashMap<>();
        claims.toJSONObject().forEach((key, value) -> {
            if (value != null) {
                out.put(key, value);
            }
        });
        return out;
    }

    private AuthResult invalid(String why, String kid, JWTClaimsSet claims) {
        if (log.isDebugEnabled()) {
            log.debug("token refused: {} (iss {}, sub {}, kid {})", why, claims == null ? null : claims.getIssuer(),
                    claims == null ? null : name(claims), kid);
        }
        return new AuthResult.Rejected(401, challenge.invalidToken());
    }
}
