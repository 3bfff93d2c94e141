package org.metaruntime.gateway.internal.manifest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a gateway policy file says: its profiles (in file order; {@code all} is built in and not among them), the
 * profile of principals no rule maps, and the rules from claims to profiles, in order. Immutable.
 */
public record PolicyDocument(Map<String, PolicyProfile> profiles, Optional<String> defaultProfile, List<ClaimRule> rules) {

    /** No policy: the built-in profile {@code all} only, which every principal has. */
    public static final PolicyDocument ALLOW_ALL = new PolicyDocument(Map.of(), Optional.of(PolicyProfile.ALL), List.of());

    public PolicyDocument {
        profiles = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(profiles));
        rules = List.copyOf(rules);
    }

    /** The profile {@code name}, {@code all} included. */
    public Optional<PolicyProfile> profile(String name) {
        return PolicyProfile.ALL.equals(name) ? Optional.of(PolicyProfile.EVERYTHING) : Optional.ofNullable(profiles.get(name));
    }
}
