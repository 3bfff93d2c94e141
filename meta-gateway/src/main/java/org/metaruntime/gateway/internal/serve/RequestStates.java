package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.metaruntime.gateway.internal.contract.CanonicalJson;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;

/**
 * The {@code requestState} of an {@code input_required} answer: what it is bound to ({@link Claims}), written as
 * {@code base64url(JSON claims) "." base64url(HMAC-SHA-256)} under a key of this process (32 random bytes drawn when
 * it is made), so that a client can neither read meaning into it nor alter it, and another gateway process cannot
 * accept it. In a cluster the key is derived from the cluster key and the state names the replica that owns the call
 * ({@link #cluster}), so that any replica can verify it and forward the retry to its owner. Opening checks the format, the MAC and the expiry; -32602 for anything else. Thread-safe.
 *
 * <pre>{@code
 * RequestStates states = new RequestStates(new SecureRandom(), Clock.systemUTC());
 * String state = states.seal(claims);
 * RequestStates.Claims back = states.open(state);   // -32602 when altered, expired or from another process
 * }</pre>
 */
final class RequestStates {

    /** The format of the claims; a state of another format is refused. */
    static final int VERSION = 1;
    /** The longest state opened; longer ones are refused unread. */
    static final int MAX_LENGTH = 64 * 1024;
    private static final String MAC = "HmacSHA256";
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    /**
     * What a state is bound to.
     *
     * @param call      the gateway's id of the parked call
     * @param round     which round of that call it answers (single use: the next round has another)
     * @param tool      the outward name of the tool called
     * @param arguments the digest of the call's arguments ({@link #digest})
     * @param caller    the caller's key ({@link org.metaruntime.gateway.internal.rpc.Principals#key})
     * @param expiresAt when it expires, in epoch milliseconds
     * @param inner     the {@code requestState} of the server behind the gateway that this one wraps, or null
     */
    record Claims(String call, long round, String tool, String arguments, String caller, long expiresAt, String inner) {
    }

    private volatile SecretKeySpec key;
    private volatile String owner;
    private final Clock clock;

    /** States under a new key drawn from {@code random}, expiring on {@code clock}. */
    RequestStates(SecureRandom random, Clock clock) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        this.key = new SecretKeySpec(bytes, MAC);
        this.clock = clock;
    }

    /**
     * Makes the states those of replica {@code replica} of a cluster: sealed under {@code sharedKey} (the same on every
     * replica), naming the replica as their owner so that any replica can tell where a retry belongs.
     */
    void cluster(String replica, byte[] sharedKey) {
        this.key = new SecretKeySpec(sharedKey.clone(), MAC);
        this.owner = replica;
    }

    /**
     * The replica that issued {@code state} when it is a state of this cluster with an intact MAC; empty for anything
     * else (a single process, an altered state: {@link #open} refuses those).
     */
    java.util.Optional<String> ownerOf(JsonNode state) {
        if (owner == null || state == null || !state.isTextual() || state.textValue().length() > MAX_LENGTH) {
            return java.util.Optional.empty();
        }
        String text = state.textValue();
        int dot = text.indexOf('.');
        try {
            byte[] payload = DECODER.decode(text.substring(0, Math.max(dot, 0)));
            if (dot < 0 || !MessageDigest.isEqual(DECODER.decode(text.substring(dot + 1)), mac(payload))) {
                return java.util.Optional.empty();
            }
            JsonNode json = JsonRpc.MAPPER.readTree(payload);
            return json.hasNonNull("owner") ? java.util.Optional.of(json.get("owner").asText()) : java.util.Optional.empty();
        } catch (IllegalArgumentException | IOException e) {
            return java.util.Optional.empty();
        }
    }

    /** The replica of the cluster that seals these states; null for a single process. */
    String owner() {
        return owner;
    }

    /** The clock states expire on. */
    Clock clock() {
        return clock;
    }

    /** The state carrying {@code claims}. */
    String seal(Claims claims) {
        ObjectNode json = JsonRpc.NODES.objectNode().put("v", VERSION).put("call", claims.call()).put("round", claims.round())
                .put("tool", claims.tool()).put("args", claims.arguments()).put("caller", claims.caller())
                .put("exp", claims.expiresAt());
        if (claims.inner() != null) {
            json.put("inner", claims.inner());
        }
        if (owner != null) {
            json.put("owner", owner);
        }
        byte[] payload = JsonRpc.write(json).getBytes(StandardCharsets.UTF_8);
        return ENCODER.encodeToString(payload) + "." + ENCODER.encodeToString(mac(payload));
    }

    /**
     * The claims of {@code state}, checked: its format, its MAC under this process's key, its expiry.
     *
     * @throws RpcException -32602 when it fails any check
     */
    Claims open(JsonNode state) {
        if (state == null || !state.isTextual() || state.textValue().length() > MAX_LENGTH) {
            throw invalid("requestState is not a state this gateway issued");
        }
        String text = state.textValue();
        int dot = text.indexOf('.');
        if (dot < 0) {
            throw invalid("requestState is not a state this gateway issued");
        }
        byte[] payload;
        byte[] mac;
        try {
            payload = DECODER.decode(text.substring(0, dot));
            mac = DECODER.decode(text.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw invalid("requestState is not a state this gateway issued");
        }
        if (!MessageDigest.isEqual(mac, mac(payload))) {
            throw invalid("requestState was altered or was issued by another gateway process");
        }
        JsonNode json;
        try {
            json = JsonRpc.MAPPER.readTree(payload);
        } catch (IOException e) {
            throw invalid("requestState is not a state this gateway issued");
        }
        if (json.path("v").asInt() != VERSION) {
            throw invalid("requestState is of another format");
        }
        Claims claims = new Claims(json.path("call").asText(), json.path("round").asLong(), json.path("tool").asText(),
                json.path("args").asText(), json.path("caller").asText(), json.path("exp").asLong(),
                json.hasNonNull("inner") ? json.get("inner").asText() : null);
        if (clock.millis() >= claims.expiresAt()) {
            throw invalid("requestState has expired: the call it belonged to was abandoned");
        }
        return claims;
    }

    /** The digest of a call's arguments: SHA-256 of their RFC 8785 canonical form, base64url. */
    static String digest(JsonNode arguments) {
        try {
            byte[] canonical = CanonicalJson.write(arguments).getBytes(StandardCharsets.UTF_8);
            return ENCODER.encodeToString(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        } catch (IllegalArgumentException e) {
            throw new RpcException(JsonRpc.INVALID_PARAMS, "arguments have no canonical JSON form: " + e.getMessage());
        }
    }

    /** A -32602 error about a {@code requestState}. */
    static RpcException invalid(String message) {
        return new RpcException(JsonRpc.INVALID_PARAMS, message, JsonRpc.NODES.objectNode().put("field", "requestState"));
    }

    private byte[] mac(byte[] payload) {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(key);
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(MAC + " is not available", e);
        }
    }
}
