package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that a tool's {@code inputSchema} (or {@code outputSchema}) is a JSON Schema object an MCP client
 * accepts: a mapping with {@code type: object}, whose {@code properties} are schemas, whose {@code required}
 * lists strings, and whose {@code type} keywords (at any depth) name JSON Schema types. Stateless.
 */
final class SchemaShape {

    private static final Set<String> TYPES = Set.of("string", "number", "integer", "boolean", "object", "array", "null");
    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "$defs", "definitions");
    private static final Set<String> SCHEMA_VALUES = Set.of("items", "additionalProperties", "not", "if", "then", "else",
            "contains", "propertyNames", "additionalItems", "unevaluatedProperties", "unevaluatedItems");
    private static final Set<String> SCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf", "prefixItems");

    private SchemaShape() {
    }

    /**
     * A problem: {@code pointer} (relative to the schema) locates it, {@code message} says it, naming the place
     * inside the schema when it is not the top.
     */
    record Problem(String pointer, String message) {
    }

    /** The first problem with {@code schema}, or empty when it is fine. */
    static Optional<Problem> check(JsonNode schema) {
        if (!schema.isObject()) {
            return Optional.of(new Problem("", "is not a JSON Schema object (a mapping)"));
        }
        JsonNode type = schema.get("type");
        if (type == null || !type.isTextual() || !"object".equals(type.textValue())) {
            return Optional.of(new Problem(type == null ? "" : "/type", "must have type: object (a tool takes an object of arguments)"));
        }
        return nested(schema, "").map(p -> new Problem(p.getKey(), "at " + TypedFields.dotted(p.getKey()) + ": " + p.getValue()));
    }

    private static Optional<Map.Entry<String, String>> nested(JsonNode schema, String at) {
        if (schema.isBoolean()) {
            return Optional.empty();
        }
        if (!schema.isObject()) {
            return Optional.of(Map.entry(at, "is not a JSON Schema (a mapping or true/false)"));
        }
        JsonNode type = schema.get("type");
        if (type != null) {
            boolean ok = type.isTextual() ? TYPES.contains(type.textValue()) : type.isArray() && type.size() > 0;
            if (type.isArray()) {
                for (JsonNode t : type) {
                    ok &= t.isTextual() && TYPES.contains(t.textValue());
                }
            }
            if (!ok) {
                return Optional.of(Map.entry(at + "/type", "type " + type + " is not a JSON Schema type " + TYPES.stream().sorted().toList()));
            }
        }
        JsonNode required = schema.get("required");
        if (required != null) {
            boolean ok = required.isArray();
            for (JsonNode r : required) {
                ok &= r.isTextual();
            }
            if (!ok) {
                return Optional.of(Map.entry(at + "/required", "required must be a list of property names"));
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String key = field.getKey();
            JsonNode value = field.getValue();
            String here = at + "/" + key;
            Optional<Map.Entry<String, String>> problem = Optional.empty();
            if (SCHEMA_MAPS.contains(key)) {
                if (!value.isObject()) {
                    return Optional.of(Map.entry(here, key + " must be a mapping of names to schemas"));
                }
                for (Iterator<Map.Entry<String, JsonNode>> p = value.fields(); p.hasNext() && problem.isEmpty(); ) {
                    Map.Entry<String, JsonNode> property = p.next();
                    problem = nested(property.getValue(), here + "/" + property.getKey());
                }
            } else if (SCHEMA_VALUES.contains(key)) {
                problem = nested(value, here);
            } else if (SCHEMA_LISTS.contains(key)) {
                if (!value.isArray()) {
                    return Optional.of(Map.entry(here, key + " must be a list of schemas"));
                }
                for (int i = 0; i < value.size() && problem.isEmpty(); i++) {
                    problem = nested(value.get(i), here + "/" + i);
                }
            }
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }
}
