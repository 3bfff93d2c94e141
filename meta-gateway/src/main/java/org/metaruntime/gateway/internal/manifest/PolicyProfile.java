package org.metaruntime.gateway.internal.manifest;

import java.util.List;
import java.util.Set;

/**
 * One profile of a gateway policy: the tools it allows (outward-name globs, and pods by tag), those it never allows,
 * whether it is an admin's, and its rate limits.
 *
 * @param toolRateLimit one bucket per principal and tool; null: none
 * @param rateLimit one bucket per principal; null: none
 */
public record PolicyProfile(String name, List<String> tools, Set<String> tags, List<String> excludeTools, boolean admin,
                            Rate rateLimit, Rate toolRateLimit) {

    /** The name of the built-in profile that allows every tool, without limits, as an admin. */
    public static final String ALL = "all";
    /** The built-in profile {@value #ALL}. */
    public static final PolicyProfile EVERYTHING = new PolicyProfile(ALL, List.of("*"), Set.of(), List.of(), true, null, null);

    public PolicyProfile {
        tools = List.copyOf(tools);
        tags = Set.copyOf(tags);
        excludeTools = List.copyOf(excludeTools);
    }

    /** Whether it allows the tool {@code outward} of a pod tagged {@code podTags}. */
    public boolean allows(String outward, Set<String> podTags) {
        if (ToolFilter.matchesAny(excludeTools, outward)) {
            return false;
        }
        if (ToolFilter.matchesAny(tools, outward)) {
            return true;
        }
        for (String tag : podTags) {
            if (tags.contains(tag)) {
                return true;
            }
        }
        return false;
    }

    /** Whether one of {@code podTags} is one of its tags (a pod without tools is visible by its tags). */
    public boolean sharesTag(Set<String> podTags) {
        return podTags.stream().anyMatch(tags::contains);
    }
}
