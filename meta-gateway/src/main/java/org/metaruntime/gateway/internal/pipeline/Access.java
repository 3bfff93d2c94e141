package org.metaruntime.gateway.internal.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.metaruntime.gateway.internal.manifest.ClaimRule;
import org.metaruntime.gateway.internal.manifest.PolicyDocument;
import org.metaruntime.gateway.internal.manifest.PolicyProfile;
import org.metaruntime.gateway.spi.Principal;

/**
 * Who may call what, by a policy: a principal's profiles (its own, else those of the claim rules it matches, else the
 * local profile for the stdio and anonymous principals, else the default profile), the profile that allows a call,
 * and whether a principal is an admin. Thread-safe (decisions are cached by profile and tool).
 */
public final class Access {

    /** No policy: every principal has the profile {@code all}. */
    public static final Access ALL = new Access(PolicyDocument.ALLOW_ALL, null);

    private static final List<String> ALL_ONLY = List.of(PolicyProfile.ALL);

    private final PolicyDocument policy;
    private final String localProfile;
    private final Map<String, Boolean> decisions = new ConcurrentHashMap<>();

    /**
     * @param localProfile the profile of the {@code local} (stdio) and {@code anonymous} (HTTP without credentials)
     *     principals; null: the policy's default
     */
    public Access(PolicyDocument policy, String localProfile) {
        this.policy = policy;
        this.localProfile = localProfile;
    }

    /** Whether there is no policy: every principal may call every tool. */
    public boolean allowsEverything() {
        return policy == PolicyDocument.ALLOW_ALL;
    }

    /** The policy it applies. */
    public PolicyDocument policy() {
        return policy;
    }

    /** The profiles of {@code principal}, in order, without repeats; empty: it may call nothing. */
    public List<String> profilesOf(Principal principal) {
        if (allowsEverything()) {
            return ALL_ONLY;
        }
        if (!principal.profiles().isEmpty()) {
            return principal.profiles();
        }
        List<String> out = new ArrayList<>();
        if (localProfile != null && ("local".equals(principal.auth()) || "none".equals(principal.auth()))) {
            out.add(localProfile);
            return out;
        }
        for (ClaimRule rule : policy.rules()) {
            if (rule.matches(principal.claims())) {
                rule.profiles().stream().filter(p -> !out.contains(p)).forEach(out::add);
            }
        }
        if (out.isEmpty()) {
            policy.defaultProfile().ifPresent(out::add);
        }
        return out;
    }

    /** The first of {@code profiles} that allows the tool {@code outward} of a pod tagged {@code podTags}. */
    public Optional<String> allowing(List<String> profiles, String outward, Set<String> podTags) {
        for (String name : profiles) {
            if (allows(name, outward, podTags)) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    private boolean allows(String profile, String outward, Set<String> podTags) {
        if (PolicyProfile.ALL.equals(profile)) {
            return true;
        }
        return decisions.computeIfAbsent(profile + '\u0000' + outward + '\u0000' + podTags, key ->
                policy.profile(profile).map(p -> p.allows(outward, podTags)).orElse(false));
    }

    /** Whether one of {@code profiles} makes a pod without tools, tagged {@code podTags}, visible. */
    public boolean seesTags(List<String> profiles, Set<String> podTags) {
        for (String name : profiles) {
            if (PolicyProfile.ALL.equals(name) || policy.profile(name).map(p -> p.sharesTag(podTags)).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code principal} is an admin: it has {@code all} or a profile with {@code admin: true}. */
    public boolean admin(Principal principal) {
        for (String name : profilesOf(principal)) {
            if (policy.profile(name).map(PolicyProfile::admin).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    /** The profile {@code name} ({@code all} included). */
    public Optional<PolicyProfile> profile(String name) {
        return policy.profile(name);
    }
}
