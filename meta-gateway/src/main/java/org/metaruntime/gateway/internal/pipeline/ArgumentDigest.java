package org.metaruntime.gateway.internal.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.metaruntime.gateway.internal.contract.CanonicalJson;

/**
 * The SHA-256 (64 lowercase hex digits) and the byte length of the RFC 8785 canonical JSON (UTF-8) of a call's
 * arguments as received ({@code {}} when absent).
 */
public record ArgumentDigest(String sha256, long bytes) {

    /** The digest of {@code arguments} (null: {@code {}}). */
    public static ArgumentDigest of(JsonNode arguments) {
        JsonNode node = arguments == null || arguments.isNull() || arguments.isMissingNode()
                ? JsonNodeFactory.instance.objectNode() : arguments;
        String canonical;
        try {
            canonical = CanonicalJson.write(node);
        } catch (IllegalArgumentException e) {
            canonical = node.toString(); // a number canonical JSON cannot hold: hashed as written
        }
        byte[] utf8 = canonical.getBytes(StandardCharsets.UTF_8);
        try {
            return new ArgumentDigest(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(utf8)), utf8.length);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
