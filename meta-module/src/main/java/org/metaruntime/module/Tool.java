package org.metaruntime.module;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A tool a module serves: its name, a description, the JSON Schema of its arguments and, optionally, of its
 * structured result. Immutable and thread-safe.
 *
 * <pre>{@code
 * Tool wordCount = Tool.of("word_count", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}")
 *         .withDescription("Counts the words of a text.");
 * }</pre>
 *
 * @param name         the tool's name: letters, digits, {@code _ - .}, 1 to 128 characters (a name
 *                     {@code <seat>.<verb>} implements that seat's verb)
 * @param description  what the tool does, for the model; may be empty
 * @param inputSchema  the JSON Schema of the arguments: an object schema ({@code "type": "object"})
 * @param outputSchema the JSON Schema of the structured result, or {@code null} for none
 */
public record Tool(String name, String description, JsonNode inputSchema, JsonNode outputSchema) {

    private static final Pattern NAME = Pattern.compile("^[A-Za-z0-9_.\\-]{1,128}$");
    private static final ObjectMapper JSON = new ObjectMapper();

    public Tool {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("tool name \"" + name
                    + "\" must be letters, digits, '_', '-' and '.', 1 to 128 characters");
        }
        description = description == null ? "" : description;
        Objects.requireNonNull(inputSchema, "inputSchema");
        requireObjectSchema(name, "inputSchema", inputSchema);
        if (outputSchema != null) {
            requireObjectSchema(name, "outputSchema", outputSchema);
        }
        inputSchema = inputSchema.deepCopy();
        outputSchema = outputSchema == null ? null : outputSchema.deepCopy();
    }

    /** A tool without description or output schema; {@code inputSchema} is JSON text. */
    public static Tool of(String name, String inputSchema) {
        return new Tool(name, "", parse(name, inputSchema), null);
    }

    /** A tool without description or output schema. */
    public static Tool of(String name, JsonNode inputSchema) {
        return new Tool(name, "", inputSchema, null);
    }

    /** This tool with {@code description}. */
    public Tool withDescription(String description) {
        return new Tool(name, description, inputSchema, outputSchema);
    }

    /** This tool with an output schema (JSON text): its results should carry matching structured content. */
    public Tool withOutputSchema(String outputSchema) {
        return new Tool(name, description, inputSchema, parse(name, outputSchema));
    }

    /** The schemas are copies: reading them never changes the tool. */
    @Override
    public JsonNode inputSchema() {
        return inputSchema.deepCopy();
    }

    @Override
    public JsonNode outputSchema() {
        return outputSchema == null ? null : outputSchema.deepCopy();
    }

    static JsonNode parse(String tool, String schema) {
        Objects.requireNonNull(schema, "schema");
        try {
            return JSON.readTree(schema);
        } catch (IOException e) {
            throw new IllegalArgumentException("tool " + tool + ": the schema is not JSON: " + e.getMessage(), e);
        }
    }

    private static void requireObjectSchema(String tool, String what, JsonNode schema) {
        if (!schema.isObject() || !"object".equals(schema.path("type").asText())) {
            throw new IllegalArgumentException("tool " + tool + ": " + what + " must be a JSON object with \"type\": \"object\"");
        }
    }
}
