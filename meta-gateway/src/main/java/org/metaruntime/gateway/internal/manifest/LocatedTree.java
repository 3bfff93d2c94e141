package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A YAML or JSON document read as a Jackson tree, with the line of every value and key, keyed by JSON
 * Pointer ({@code ""} is the root, {@code "/spec/tools/0/name"} a key inside it). Duplicate keys are a parse
 * error. Immutable once read.
 */
public final class LocatedTree {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final YAMLFactory YAML = YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private final Path file;
    private final JsonNode root;
    private final Map<String, Integer> lines;

    private LocatedTree(Path file, JsonNode root, Map<String, Integer> lines) {
        this.file = file;
        this.root = root;
        this.lines = Map.copyOf(lines);
    }

    /** Thrown when the file is not well-formed; carries the line of the problem. */
    public static final class SyntaxException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int line;

        SyntaxException(int line, String message) {
            super(message);
            this.line = line;
        }

        /** The 1-based line, or 1 when unknown. */
        public int line() {
            return line;
        }
    }

    /** Reads a YAML file (one document). */
    public static LocatedTree readYaml(Path file) throws IOException, SyntaxException {
        return read(file, YAML);
    }

    /** Reads a JSON file. */
    public static LocatedTree readJson(Path file) throws IOException, SyntaxException {
        return read(file, JSON);
    }

    private static LocatedTree read(Path file, JsonFactory factory) throws IOException, SyntaxException {
        Map<String, Integer> lines = new HashMap<>();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
             JsonParser parser = factory.createParser(reader)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new SyntaxException(1, "the file is empty");
            }
            JsonNode root = value(parser, "", lines);
            JsonToken next = parser.nextToken();
            if (next != null) {
                throw new SyntaxException(line(parser), "the file holds more than one document (one pod per file)");
            }
            return new LocatedTree(file, root, lines);
        } catch (JsonParseException e) {
            int line = e.getLocation() == null ? 1 : Math.max(1, e.getLocation().getLineNr());
            throw new SyntaxException(line, cleanMessage(e, factory == YAML ? "YAML" : "JSON"));
        }
    }

    private static JsonNode value(JsonParser p, String pointer, Map<String, Integer> lines) throws IOException {
        lines.putIfAbsent(pointer, line(p));
        JsonToken token = p.currentToken();
        switch (token) {
            case START_OBJECT: {
                ObjectNode object = NODES.objectNode();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    String child = pointer + "/" + escape(name);
                    lines.put(child, line(p));
                    p.nextToken();
                    object.set(name, value(p, child, lines));
                }
                return object;
            }
            case START_ARRAY: {
                ArrayNode array = NODES.arrayNode();
                int index = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    array.add(value(p, pointer + "/" + index++, lines));
                }
                return array;
            }
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return NODES.numberNode(p.getIntValue());
                    case LONG:
                        return NODES.numberNode(p.getLongValue());
                    default:
                        return NODES.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(p.getDecimalValue());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                return NODES.textNode(p.getText());
        }
    }

    private static int line(JsonParser p) {
        return Math.max(1, p.currentTokenLocation().getLineNr());
    }

    private static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    private static String cleanMessage(JsonParseException e, String format) {
        String message = e.getOriginalMessage();
        if (message.startsWith("Duplicate field")) {
            return "duplicate key " + message.substring("Duplicate field".length()).trim();
        }
        int newline = message.indexOf('\n');
        return "not valid " + format + ": " + (newline < 0 ? message : message.substring(0, newline)).trim();
    }

    /** The file this tree was read from. */
    public Path file() {
        return file;
    }

    /** The document. */
    public JsonNode root() {
        return root;
    }

    /** The line of the value or key at {@code pointer}, or of its nearest located parent. */
    public int line(String pointer) {
        String p = pointer;
        while (true) {
            Integer line = lines.get(p);
            if (line != null) {
                return line;
            }
            if (p.isEmpty()) {
                return 1;
            }
            p = p.substring(0, p.lastIndexOf('/'));
        }
    }
}
