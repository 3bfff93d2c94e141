package org.metaruntime.gateway.internal.auth;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.metaruntime.gateway.NamedToken;
import org.metaruntime.gateway.spi.AuthRequest;
import org.metaruntime.gateway.spi.AuthResult;
import org.metaruntime.gateway.spi.Authenticator;
import org.metaruntime.gateway.spi.Principal;

/**
 * Named bearer tokens: a request presenting one is the entry's principal (its {@code name}, auth {@code tokens}, its
 * {@code profiles}). The presented value's SHA-256 is compared with every entry's, each in constant time and without
 * stopping at a match, so the time taken says nothing about which entry, if any, matched. Thread-safe.
 */
public final class NamedTokens implements Authenticator {

    /** The principal's {@code auth}. */
    public static final String AUTH = "tokens";

    private final byte[][] digests;
    private final Principal[] principals;
    private final Set<String> variables;

    /**
     * @throws IllegalArgumentException when two entries share a name or a token
     */
    public NamedTokens(List<NamedToken> tokens) {
        this(new NamedTokensFile.Entries(tokens, Set.of()));
    }

    /**
     * The tokens of a file; the variables they were read from are kept (by name) so that no pod inherits them.
     *
     * @throws IllegalArgumentException when two entries share a name or a token
     */
    public NamedTokens(NamedTokensFile.Entries entries) {
        List<NamedToken> tokens = entries.tokens();
        this.variables = entries.variables();
        this.digests = new byte[tokens.size()][];
        this.principals = new Principal[tokens.size()];
        Map<String, String> names = new HashMap<>();
        Map<String, String> hashes = new HashMap<>();
        for (int i = 0; i < tokens.size(); i++) {
            NamedToken token = tokens.get(i);
            if (names.put(token.name(), token.name()) != null) {
                throw new IllegalArgumentException("two named tokens are named " + token.name());
            }
            String other = hashes.put(token.sha256Hex(), token.name());
            if (other != null) {
                throw new IllegalArgumentException("named tokens " + other + " and " + token.name() + " have the same token");
            }
            digests[i] = HexFormat.of().parseHex(token.sha256Hex());
            principals[i] = new Principal(token.name(), AUTH, token.profiles(), Map.of());
        }
    }

    /** The environment variables the tokens were read from: credentials, which no pod inherits. */
    public Set<String> variables() {
        return variables;
    }

    @Override
    public AuthResult authenticate(AuthRequest request) {
        Optional<String> presented = request.bearerToken();
        if (presented.isEmpty()) {
            return new AuthResult.Abstain();
        }
        byte[] digest = Digests.sha256(presented.get());
        Principal found = null;
        for (int i = 0; i < digests.length; i++) {
            if (Digests.equal(digests[i], digest) && found == null) {
                found = principals[i];
            }
        }
        return found == null ? new AuthResult.Abstain() : new AuthResult.Authenticated(found);
    }
}
