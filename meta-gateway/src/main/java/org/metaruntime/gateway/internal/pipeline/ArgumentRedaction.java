package org.metaruntime.gateway.internal.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Arguments as the audit stores them: the value of every key, at any depth (in objects inside arrays too), whose
 * name, lower-cased with {@code -} read as {@code _}, contains {@code password}, {@code token}, {@code secret},
 * {@code api_key} or {@code authorization} is replaced by {@code "[redacted]"}. Stateless.
 */
public final class ArgumentRedaction {

    /** What a secret-looking value is replaced with. */
    public static final String REDACTED = "[redacted]";
    private static final List<String> SECRET_WORDS = List.of("password", "token", "secret", "api_key", "authorization");

    private ArgumentRedaction() {
    }

    /** A redacted copy of {@code arguments}. */
    public static JsonNode redact(JsonNode arguments) {
        if (arguments == null) {
            return null;
        }
        JsonNode copy = arguments.deepCopy();
        walk(copy);
        return copy;
    }

    /** Whether the value of the key {@code name} is redacted. */
    public static boolean secretLooking(String name) {
        String key = name.toLowerCase(Locale.ROOT).replace('-', '_');
        return SECRET_WORDS.stream().anyMatch(key::contains);
    }

    private static void walk(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (secretLooking(field.getKey())) {
                    field.setValue(object.textNode(REDACTED));
                } else {
                    walk(field.getValue());
                }
            }
        } else if (node instanceof ArrayNode array) {
            array.forEach(ArgumentRedaction::walk);
        }
    }
}
