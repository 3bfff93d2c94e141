package org.metaruntime.gateway;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.metaruntime.gateway.internal.auth.Digests;

/**
 * One named bearer token: the principal's name, the SHA-256 of the token (the token itself is not kept) and the
 * principal's profiles (empty: the policy's default profile).
 *
 * <pre>{@code
 * Authenticator tokens = Authenticators.namedTokens(List.of(
 *         NamedToken.of("alice", System.getenv("ALICE_GATEWAY_TOKEN"), List.of("support"))));
 * }</pre>
 *
 * @param name      1 to 64 of letters, digits and {@code _ . @ : -}
 * @param sha256Hex 64 lowercase hex digits: the SHA-256 of the token's UTF-8 bytes
 * @param profiles  the principal's profiles
 */
public record NamedToken(String name, String sha256Hex, List<String> profiles) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@:-]{1,64}");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    /** The shortest token accepted. */
    public static final int MIN_TOKEN_LENGTH = 16;

    public NamedToken {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sha256Hex, "sha256Hex");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a token's name is 1 to 64 of letters, digits and _ . @ : -, not " + name);
        }
        if (!SHA256.matcher(sha256Hex).matches()) {
            throw new IllegalArgumentException("sha256Hex is 64 lowercase hex digits");
        }
        profiles = List.copyOf(profiles);
    }

    /**
     * The entry of {@code token} (at least {@value #MIN_TOKEN_LENGTH} visible ASCII characters), kept as its SHA-256.
     *
     * @throws IllegalArgumentException when the token is too short or has other characters
     */
    public static NamedToken of(String name, String token, List<String> profiles) {
        Objects.requireNonNull(token, "token");
        if (token.length() < MIN_TOKEN_LENGTH || token.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            throw new IllegalArgumentException("a token is at least " + MIN_TOKEN_LENGTH + " visible ASCII characters");
        }
        return new NamedToken(name, Digests.sha256Hex(token), profiles);
    }

    @Override
    public String toString() {
        return "NamedToken[name=" + name + ", profiles=" + profiles + "]";
    }
}
