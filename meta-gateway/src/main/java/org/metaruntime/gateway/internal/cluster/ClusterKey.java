package org.metaruntime.gateway.internal.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key shared by the replicas of a cluster ({@code --cluster-key-file}): signs and checks replica-to-replica
 * requests with an HMAC-SHA256 over the method, the path, a timestamp and the body. A signature older or newer than
 * {@link #MAX_AGE} is stale. The key is never printed: {@link #toString()} hides it. Thread-safe.
 */
public final class ClusterKey {

    /** The header with the request's timestamp, epoch milliseconds. */
    public static final String TIMESTAMP_HEADER = "X-Meta-Cluster-Timestamp";
    /** The header with the request's HMAC, lowercase hex. */
    public static final String SIGNATURE_HEADER = "X-Meta-Cluster-Signature";
    /** The header naming the replica that sent the request. */
    public static final String REPLICA_HEADER = "X-Meta-Cluster-Replica";
    /** How far a signed request's timestamp may be from the receiver's clock. */
    public static final Duration MAX_AGE = Duration.ofSeconds(30);
    /** The fewest bytes a key may have. */
    public static final int MIN_BYTES = 16;

    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    private ClusterKey(byte[] key) {
        this.key = new SecretKeySpec(key, ALGORITHM);
    }

    /** The key {@code bytes} (at least {@link #MIN_BYTES}). */
    public static ClusterKey of(byte[] bytes) {
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException("a cluster key has at least " + MIN_BYTES + " bytes");
        }
        return new ClusterKey(bytes.clone());
    }

    /**
     * The key in {@code file}: its content without surrounding whitespace.
     *
     * @throws IOException              when it cannot be read
     * @throws IllegalArgumentException when it is shorter than {@link #MIN_BYTES} bytes
     */
    public static ClusterKey read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).strip();
        return of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A key for {@code purpose} derived from this one (HMAC-SHA256 of the purpose): the same on every replica. */
    public byte[] derive(String purpose) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(("meta-gateway " + purpose).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }

    /** The signature of a request. */
    public String sign(String method, String path, long timestampMs, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update((method.toUpperCase(java.util.Locale.ROOT) + "\n" + path + "\n" + timestampMs + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            mac.update(body);
            return HexFormat.of().formatHex(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }

    /**
     * Whether a received request carries a valid, fresh signature: {@code timestamp} and {@code signature} are its
     * headers (null when missing), {@code nowMs} the receiver's clock.
     */
    public boolean verify(String method, String path, String timestamp, String signature, byte[] body, long nowMs) {
        if (timestamp == null || signature == null) {
            return false;
        }
        long at;
        try {
            at = Long.parseLong(timestamp.strip());
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(nowMs - at) > MAX_AGE.toMillis()) {
            return false;
        }
        byte[] expected = sign(method, path, at, body).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, signature.strip().toLowerCase(java.util.Locale.ROOT)
                .getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Whether a request's signature headers are there and its timestamp fresh, before its body is read (the
     * signature itself is checked with {@link #verify}).
     */
    public static boolean plausible(String timestamp, String signature, long nowMs) {
        if (timestamp == null || signature == null || signature.isBlank()) {
            return false;
        }
        try {
            return Math.abs(nowMs - Long.parseLong(timestamp.strip())) <= MAX_AGE.toMillis();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "ClusterKey[hidden]";
    }
}
