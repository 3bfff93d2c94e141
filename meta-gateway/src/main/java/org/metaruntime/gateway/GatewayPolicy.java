package org.metaruntime.gateway;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import org.metaruntime.gateway.internal.manifest.PolicyDocument;
import org.metaruntime.gateway.internal.manifest.PolicyReader;

/**
 * Which tools each principal may call, and how often: named profiles (tools by outward-name globs and by the tags of
 * their pods' manifests, tools excluded, admin, rate limits), the profile of principals no rule maps, and rules from
 * token claims to profiles. Read from a {@code kind: GatewayPolicy} file at startup. Immutable and thread-safe.
 *
 * <pre>{@code
 * GatewayPolicy policy = GatewayPolicy.read(Path.of("policy.yaml"));   // ManifestException: file:line problems
 * GatewayOptions options = GatewayOptions.builder().policy(policy).localProfile("readonly").build();
 * }</pre>
 */
public final class GatewayPolicy {

    private static final GatewayPolicy ALLOW_ALL = new GatewayPolicy(PolicyDocument.ALLOW_ALL);

    private final PolicyDocument document;

    private GatewayPolicy(PolicyDocument document) {
        this.document = document;
    }

    /**
     * The policy of {@code file}.
     *
     * @throws ManifestException with every problem of the file, each at its {@code file:line}
     */
    public static GatewayPolicy read(Path file) {
        return new GatewayPolicy(PolicyReader.read(file));
    }

    /** No policy: the built-in profile {@code all} only (every tool, no limits, admin), which every principal has. */
    public static GatewayPolicy allowAll() {
        return ALLOW_ALL;
    }

    /** The profiles the policy defines, in file order ({@code all}, built in, is not among them). */
    public Set<String> profiles() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(document.profiles().keySet()));
    }

    /** The profile of principals no rule maps ({@code all} for {@link #allowAll()}); empty: they may call nothing. */
    public Optional<String> defaultProfile() {
        return document.defaultProfile();
    }

    /** Whether {@code name} is {@code all} or a profile of this policy. */
    public boolean hasProfile(String name) {
        return document.profile(name).isPresent();
    }

    /** What the file says (for the gateway's own packages). */
    PolicyDocument document() {
        return document;
    }

    @Override
    public String toString() {
        return this == ALLOW_ALL ? "GatewayPolicy[allowAll]" : "GatewayPolicy" + profiles();
    }
}
