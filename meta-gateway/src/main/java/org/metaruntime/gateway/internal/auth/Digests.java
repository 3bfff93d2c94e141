package org.metaruntime.gateway.internal.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of tokens, and their comparison in a time that does not depend on the values. Stateless. */
public final class Digests {

    private Digests() {
    }

    /** The SHA-256 of {@code text}'s UTF-8 bytes. */
    public static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    /** The SHA-256 of {@code text}'s UTF-8 bytes as 64 lowercase hex digits. */
    public static String sha256Hex(String text) {
        return HexFormat.of().formatHex(sha256(text));
    }

    /**
     * Whether two digests are equal, in a time that depends only on their length (both sides are digests, so a
     * presented token's length shows nowhere).
     */
    public static boolean equal(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }
}
