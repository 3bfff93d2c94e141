package org.metaruntime.langchain4j.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool's JSON Schema ({@code inputSchema}) as langchain4j's schema elements, or the reason it cannot be one.
 *
 * <ul>
 *   <li>{@code type} {@code string}, {@code integer}, {@code number}, {@code boolean}, {@code null}, {@code array}
 *       ({@code items} mapped), {@code object} ({@code properties}, {@code required} and a boolean
 *       {@code additionalProperties} kept; recursively); a list of types is an {@code anyOf} of each;</li>
 *   <li>{@code enum}: a {@link JsonEnumSchema} of the values as strings;</li>
 *   <li>{@code anyOf}: a {@link JsonAnyOfSchema} of each branch;</li>
 *   <li>{@code $ref} {@code #/$defs/<name>} (or {@code #/definitions/<name>}) to a definition of the root: a
 *       {@link JsonReferenceSchema}, the root's definitions mapped too;</li>
 *   <li>{@code description} is kept on every element that has one in langchain4j; annotations that do not
 *       constrain a value ({@code title}, {@code default}, {@code examples}, {@code $comment}, {@code $schema},
 *       {@code $id}, {@code deprecated}, {@code readOnly}, {@code writeOnly}) are not carried.</li>
 * </ul>
 *
 * Any other keyword ({@code minimum}, {@code pattern}, {@code format}, {@code oneOf}, {@code allOf}, a schema-valued
 * {@code additionalProperties}, ...) cannot be expressed: the whole schema is refused rather than offered with a
 * constraint dropped. Stateless.
 */
public final class SchemaMapping {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> ANNOTATIONS = Set.of("title", "default", "examples", "$comment", "$schema", "$id",
            "deprecated", "readOnly", "writeOnly");
    private static final Set<String> OBJECT_KEYWORDS = Set.of("type", "description", "properties", "required",
            "additionalProperties");
    private static final Set<String> ROOT_KEYWORDS = Set.of("$defs", "definitions");

    private SchemaMapping() {
    }

    /** A schema that langchain4j's elements cannot express; the message says which part and why. */
    public static final class NotExpressible extends Exception {
        private static final long serialVersionUID = 1L;

        NotExpressible(String path, String reason) {
            super(path + ": " + reason);
        }
    }

    /**
     * The parameters of a tool whose {@code inputSchema} is {@code schema} (a JSON object schema; {@code null} or
     * empty: no parameters).
     *
     * @throws NotExpressible when a part of the schema has no langchain4j element
     */
    public static JsonObjectSchema parameters(Map<String, Object> schema) throws NotExpressible {
        JsonNode root = schema == null ? MAPPER.createObjectNode() : MAPPER.valueToTree(schema);
        return parameters(root);
    }

    /** {@link #parameters(Map)} of a schema as a JSON tree. */
    public static JsonObjectSchema parameters(JsonNode root) throws NotExpressible {
        if (!root.isObject()) {
            throw new NotExpressible("inputSchema", "not a JSON object");
        }
        JsonNode type = root.get("type");
        if (type != null && !(type.isTextual() && type.asText().equals("object"))) {
            throw new NotExpressible("inputSchema.type", "the parameters of a tool are an object, not " + type);
        }
        Map<String, JsonSchemaElement> definitions = new LinkedHashMap<>();
        Set<String> names = new java.util.HashSet<>();
        for (String key : List.of("$defs", "definitions")) {
            JsonNode defs = root.get(key);
            if (defs == null) {
                continue;
            }
            if (!defs.isObject()) {
                throw new NotExpressible("inputSchema." + key, "not an object of schemas");
            }
            defs.fieldNames().forEachRemaining(names::add);
        }
        Context context = new Context(names);
        for (String key : List.of("$defs", "definitions")) {
            JsonNode defs = root.get(key);
            if (defs != null) {
                for (Iterator<Map.Entry<String, JsonNode>> it = defs.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> definition = it.next();
                    if (definitions.containsKey(definition.getKey())) {
                        throw new NotExpressible("inputSchema." + key + "." + definition.getKey(),
                                "defined in both $defs and definitions");
                    }
                    definitions.put(definition.getKey(), element(definition.getValue(),
                            "inputSchema." + key + "." + definition.getKey(), context));
                }
            }
        }
        JsonObjectSchema.Builder object = objectBuilder(root, "inputSchema", context, ROOT_KEYWORDS);
        if (!definitions.isEmpty()) {
            object.definitions(definitions);
        }
        return object.build();
    }

    private record Context(Set<String> definitions) {
    }

    private static JsonSchemaElement element(JsonNode schema, String path, Context context) throws NotExpressible {
        if (!schema.isObject()) {
            throw new NotExpressible(path, schema.isBoolean() ? "a boolean schema" : "not a schema object");
        }
        if (schema.has("$ref")) {
            return reference(schema, path, context);
        }
        if (schema.has("enum")) {
            return enumeration(schema, path);
        }
        if (schema.has("anyOf")) {
            return anyOf(schema, path, context);
        }
        JsonNode type = schema.get("type");
        if (type == null) {
            throw new NotExpressible(path, "no type, enum, anyOf or $ref");
        }
        if (type.isArray()) {
            return typeList(schema, type, path, context);
        }
        if (!type.isTextual()) {
            throw new NotExpressible(path + ".type", "not a type name");
        }
        String description = text(schema, "description", path);
        switch (type.asText()) {
            case "string":
                only(schema, path, Set.of("type", "description"));
                return JsonStringSchema.builder().description(description).build();
            case "integer":
                only(schema, path, Set.of("type", "description"));
                return JsonIntegerSchema.builder().description(description).build();
            case "number":
                only(schema, path, Set.of("type", "description"));
                return JsonNumberSchema.builder().description(description).build();
            case "boolean":
                only(schema, path, Set.of("type", "description"));
                return JsonBooleanSchema.builder().description(description).build();
            case "null":
                only(schema, path, Set.of("type"));
                return new JsonNullSchema();
            case "array":
                return array(schema, path, context);
            case "object":
                return objectBuilder(schema, path, context, Set.of()).build();
            default:
                throw new NotExpressible(path + ".type", "unknown type " + type);
        }
    }

    private static JsonArraySchema array(JsonNode schema, String path, Context context) throws NotExpressible {
        only(schema, path, Set.of("type", "description", "items"));
        JsonArraySchema.Builder array = JsonArraySchema.builder().description(text(schema, "description", path));
        JsonNode items = schema.get("items");
        if (items == null) {
            throw new NotExpressible(path, "an array without items");
        }
        return array.items(element(items, path + ".items", context)).build();
    }

    private static JsonObjectSchema.Builder objectBuilder(JsonNode schema, String path, Context context,
                                                          Set<String> extra) throws NotExpressible {
        Set<String> allowed = new java.util.HashSet<>(OBJECT_KEYWORDS);
        allowed.addAll(extra);
        only(schema, path, allowed);
        JsonObjectSchema.Builder object = JsonObjectSchema.builder().description(text(schema, "description", path));
        JsonNode properties = schema.get("properties");
        if (properties != null) {
            if (!properties.isObject()) {
                throw new NotExpressible(path + ".properties", "not an object of schemas");
            }
            Map<String, JsonSchemaElement> mapped = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> property = it.next();
                mapped.put(property.getKey(), element(property.getValue(),
                        path + ".properties." + property.getKey(), context));
            }
            object.addProperties(mapped);
        }
        JsonNode required = schema.get("required");
        if (required != null) {
            if (!required.isArray()) {
                throw new NotExpressible(path + ".required", "not a list of names");
            }
            List<String> names = new ArrayList<>();
            for (JsonNode name : required) {
                if (!name.isTextual()) {
                    throw new NotExpressible(path + ".required", "not a list of names");
                }
                names.add(name.asText());
            }
            object.required(names);
        }
        JsonNode additional = schema.get("additionalProperties");
        if (additional != null) {
            if (!additional.isBoolean()) {
                throw new NotExpressible(path + ".additionalProperties", "a schema, not true or false");
            }
            object.additionalProperties(additional.asBoolean());
        }
        return object;
    }

    private static JsonSchemaElement enumeration(JsonNode schema, String path) throws NotExpressible {
        only(schema, path, Set.of("type", "description", "enum"));
        JsonNode values = schema.get("enum");
        if (!values.isArray() || values.isEmpty()) {
            throw new NotExpressible(path + ".enum", "not a non-empty list of values");
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode value : values) {
            if (!value.isValueNode() || value.isNull()) {
                throw new NotExpressible(path + ".enum", "a value that is not a string, number or boolean: "
                        + value);
            }
            texts.add(value.asText());
        }
        return JsonEnumSchema.builder().description(text(schema, "description", path)).enumValues(texts).build();
    }

    private static JsonSchemaElement anyOf(JsonNode schema, String path, Context context) throws NotExpressible {
        only(schema, path, Set.of("description", "anyOf"));
        JsonNode branches = schema.get("anyOf");
        if (!branches.isArray() || branches.isEmpty()) {
            throw new NotExpressible(path + ".anyOf", "not a non-empty list of schemas");
        }
        List<JsonSchemaElement> mapped = new ArrayList<>();
        for (int i = 0; i < branches.size(); i++) {
            mapped.add(element(branches.get(i), path + ".anyOf[" + i + "]", context));
        }
        return JsonAnyOfSchema.builder().description(text(schema, "description", path)).anyOf(mapped).build();
    }

    private static JsonSchemaElement typeList(JsonNode schema, JsonNode types, String path, Context context)
            throws NotExpressible {
        if (types.isEmpty()) {
            throw new NotExpressible(path + ".type", "an empty list of types");
        }
        List<JsonSchemaElement> mapped = new ArrayList<>();
        for (JsonNode type : types) {
            if (type.isTextual() && type.asText().equals("null")) {
                mapped.add(new JsonNullSchema());
                continue;
            }
            com.fasterxml.jackson.databind.node.ObjectNode one = schema.deepCopy();
            one.set("type", type);
            one.remove("description");
            mapped.add(element(one, path, context));
        }
        return JsonAnyOfSchema.builder().description(text(schema, "description", path)).anyOf(mapped).build();
    }

    private static JsonSchemaElement reference(JsonNode schema, String path, Context context) throws NotExpressible {
        only(schema, path, Set.of("$ref", "description"));
        String ref = text(schema, "$ref", path);
        String name = null;
        for (String prefix : List.of("#/$defs/", "#/definitions/")) {
            if (ref.startsWith(prefix)) {
                name = ref.substring(prefix.length());
            }
        }
        if (name == null || name.contains("/") || !context.definitions().contains(name)) {
            throw new NotExpressible(path + ".$ref", "not a reference to a definition of the root: " + ref);
        }
        return JsonReferenceSchema.builder().reference(name).build();
    }

    private static String text(JsonNode schema, String keyword, String path) throws NotExpressible {
        JsonNode value = schema.get(keyword);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw new NotExpressible(path + "." + keyword, "not a string");
        }
        return value.asText();
    }

    /** Refuses a keyword outside {@code allowed} that is not a mere annotation. */
    private static void only(JsonNode schema, String path, Set<String> allowed) throws NotExpressible {
        for (Iterator<String> it = schema.fieldNames(); it.hasNext(); ) {
            String keyword = it.next();
            if (!allowed.contains(keyword) && !ANNOTATIONS.contains(keyword)) {
                throw new NotExpressible(path + "." + keyword, "no langchain4j schema element expresses it");
            }
        }
    }
}
