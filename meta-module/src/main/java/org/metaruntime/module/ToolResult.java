package org.metaruntime.module;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * A tool's result as MCP's {@code CallToolResult}: content blocks, optional structured content, and whether it is
 * an error. Immutable and thread-safe.
 *
 * <pre>{@code
 * return ToolResult.text("done");
 * return ToolResult.structured(mapper.createObjectNode().put("words", 3));
 * return ToolResult.error("no such file: " + path);
 * }</pre>
 *
 * @param content           the content blocks, each a JSON object with a {@code type} ({@code text}, {@code image}, ...)
 * @param structuredContent a JSON object matching the tool's output schema, or {@code null}
 * @param isError           whether the tool failed (the model sees the content as the error)
 */
public record ToolResult(List<JsonNode> content, JsonNode structuredContent, boolean isError) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public ToolResult {
        content = List.copyOf(Objects.requireNonNull(content, "content"));
        for (JsonNode block : content) {
            if (!block.isObject() || !block.path("type").isTextual()) {
                throw new IllegalArgumentException("a content block must be a JSON object with a \"type\": " + block);
            }
        }
        if (structuredContent != null && !structuredContent.isObject()) {
            throw new IllegalArgumentException("structuredContent must be a JSON object");
        }
        content = content.stream().<JsonNode>map(JsonNode::deepCopy).toList();
        structuredContent = structuredContent == null ? null : structuredContent.deepCopy();
    }

    /** One text block. */
    public static ToolResult text(String text) {
        return new ToolResult(List.of(textBlock(text)), null, false);
    }

    /** A JSON object as structured content, with its JSON text as the one text block. */
    public static ToolResult structured(JsonNode object) {
        Objects.requireNonNull(object, "object");
        return new ToolResult(List.of(textBlock(object.toString())), object, false);
    }

    /** A failure the model reads: one text block, {@code isError: true}. */
    public static ToolResult error(String message) {
        return new ToolResult(List.of(textBlock(message)), null, true);
    }

    /** The result as the JSON of MCP's {@code CallToolResult}. */
    public ObjectNode toJson(boolean withStructuredContent) {
        ObjectNode result = JSON.createObjectNode();
        content.forEach(result.putArray("content")::add);
        if (structuredContent != null && withStructuredContent) {
            result.set("structuredContent", structuredContent);
        }
        if (isError) {
            result.put("isError", true);
        }
        return result;
    }

    private static JsonNode textBlock(String text) {
        return JSON.createObjectNode().put("type", "text").put("text", text == null ? "" : text);
    }
}
