package org.metaruntime.gateway.internal.manifest;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A policy's rule from a token's claims to profiles: the claim {@code claim} {@code contains} a value (an array claim
 * holding it, or a string claim whose space-separated words include it) or {@code equals} it (a string claim).
 * Exactly one of {@code contains} and {@code equals} is set.
 */
public record ClaimRule(String claim, String contains, String equals, List<String> profiles) {

    public ClaimRule {
        profiles = List.copyOf(profiles);
    }

    /** Whether {@code claims} match the rule. */
    public boolean matches(Map<String, Object> claims) {
        Object value = claims.get(claim);
        if (equals != null) {
            return value instanceof String s && s.equals(equals);
        }
        if (value instanceof String s) {
            for (String word : s.split(" ")) {
                if (word.equals(contains)) {
                    return true;
                }
            }
            return false;
        }
        if (value instanceof Collection<?> list) {
            return list.stream().anyMatch(contains::equals);
        }
        if (value instanceof com.fasterxml.jackson.databind.JsonNode node && node.isArray()) {
            for (com.fasterxml.jackson.databind.JsonNode item : node) {
                if (item.isTextual() && item.textValue().equals(contains)) {
                    return true;
                }
            }
        }
        return false;
    }
}
