package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The typed fields of one manifest's tree: each getter reads a key of a mapping, and a missing or mistyped value is a
 * problem at its {@code file:line} (added to the manifest's {@link Problems}), never an exception. Not thread-safe.
 */
final class TypedFields {

    private final LocatedTree tree;
    private final Problems problems;

    TypedFields(LocatedTree tree, Problems problems) {
        this.tree = tree;
        this.problems = problems;
    }


    JsonNode required(JsonNode parent, String at, String key) {
        JsonNode node = parent.get(key);
        if (node == null || node.isNull()) {
            problem(at, dotted(at + "/" + key) + " is missing");
            return null;
        }
        return node;
    }

    JsonNode mapping(JsonNode parent, String at, String key, boolean required) {
        return typed(parent, at, key, required, JsonNode::isObject, "a mapping");
    }

    String text(JsonNode parent, String at, String key, boolean required) {
        JsonNode node = typed(parent, at, key, required, JsonNode::isTextual, "a string");
        return node == null ? null : node.textValue();
    }

    boolean bool(JsonNode parent, String at, String key, boolean fallback) {
        JsonNode node = typed(parent, at, key, false, JsonNode::isBoolean, "true or false");
        return node == null ? fallback : node.booleanValue();
    }

    /**
     * The value of {@code key} when it {@code fits}, else null: missing (a problem only when {@code required}), or of
     * another type (a problem saying it must be {@code expected}).
     */
    private JsonNode typed(JsonNode parent, String at, String key, boolean required, Predicate<JsonNode> fits,
                           String expected) {
        JsonNode node = required ? required(parent, at, key) : parent.get(key);
        if (node == null) {
            return null;
        }
        if (!fits.test(node)) {
            problem(at + "/" + key, dotted(at + "/" + key) + " must be " + expected + ", not " + typeOf(node));
            return null;
        }
        return node;
    }

    Duration duration(JsonNode parent, String at, String key, Duration fallback) {
        JsonNode node = parent.get(key);
        if (node == null) {
            return fallback;
        }
        Optional<Duration> parsed = node.isTextual() ? Durations.parse(node.textValue()) : Optional.empty();
        if (parsed.isEmpty()) {
            problem(at + "/" + key, dotted(at + "/" + key) + ": " + node + " is not a duration (a positive number with ms, s, m or h: 500ms, 30s, 2m)");
            return fallback;
        }
        return parsed.get();
    }

    void unknownKeys(JsonNode node, String at, Set<String> known) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.contains(key)) {
                String where = at.isEmpty() ? "at the top level" : "in " + dotted(at);
                problem(at + "/" + key, "unknown key \"" + key + "\" " + where + " (known: " + String.join(", ", known) + ")");
            }
        }
    }

    void problem(String pointer, String message) {
        problems.add(tree, pointer, message);
    }

    static String typeOf(JsonNode node) {
        if (node.isTextual()) {
            return "a string";
        } else if (node.isNumber()) {
            return "a number";
        } else if (node.isBoolean()) {
            return "a boolean";
        } else if (node.isArray()) {
            return "a list";
        } else if (node.isObject()) {
            return "a mapping";
        }
        return "null";
    }

    /** {@code /spec/tools/0/name} as {@code spec.tools[0].name}. */
    static String dotted(String pointer) {
        StringBuilder out = new StringBuilder();
        for (String part : pointer.split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            if (part.chars().allMatch(Character::isDigit)) {
                out.append('[').append(part).append(']');
            } else {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(part.replace("~1", "/").replace("~0", "~"));
            }
        }
        return out.toString();
    }
}
