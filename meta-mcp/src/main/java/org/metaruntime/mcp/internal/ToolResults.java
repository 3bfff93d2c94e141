package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;

/**
 * Maps a {@code tools/call} result to the call's payload:
 * {@code structuredContent} when present; else, when every content block is text, the concatenated text
 * parsed as JSON when it parses, otherwise as a JSON string; else the content blocks as sent.
 * A result with {@code isError: true} is a {@link McpBoundaryError.ToolCallFailed} whose reason is its text.
 * Stateless and thread-safe.
 */
public final class ToolResults {

    private ToolResults() {
    }

    /** The payload of {@code result}, or a {@link McpBoundaryException} carrying {@code ToolCallFailed}. */
    public static JsonNode toPayload(String moduleId, String tool, JsonNode result) {
        if (result == null || !result.isObject()) {
            throw failed(moduleId, tool, "the server sent a tools/call result that is not an object");
        }
        JsonNode content = result.get("content");
        if (content != null && !content.isNull() && !content.isArray()) {
            throw failed(moduleId, tool, "the server sent a tools/call result whose content is not an array");
        }
        if (result.path("isError").asBoolean(false)) {
            String text = allText(content) ? concatenatedText(content) : String.valueOf(content);
            throw failed(moduleId, tool, text.isEmpty() ? "the tool reported an error without a message" : text);
        }
        JsonNode structured = result.get("structuredContent");
        if (structured != null && !structured.isNull()) {
            return structured;
        }
        if (content == null || content.isNull() || allText(content)) {
            String text = content == null || content.isNull() ? "" : concatenatedText(content);
            return parseOrString(text);
        }
        return content;
    }

    private static boolean allText(JsonNode content) {
        if (content == null || content.isNull()) {
            return true;
        }
        for (JsonNode block : content) {
            if (!"text".equals(block.path("type").asText(null)) || !block.path("text").isTextual()) {
                return false;
            }
        }
        return true;
    }

    private static String concatenatedText(JsonNode content) {
        if (content.size() == 1) {
            return content.get(0).get("text").textValue();
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode block : content) {
            sb.append(block.get("text").textValue());
        }
        return sb.toString();
    }

    private static JsonNode parseOrString(String text) {
        if (looksLikeJson(text)) {
            try {
                JsonNode parsed = Json.STRICT_READER.readTree(text);
                if (parsed != null && !parsed.isMissingNode()) {
                    return parsed;
                }
            } catch (IOException notJson) {
                // plain text
            }
        }
        return TextNode.valueOf(text);
    }

    /** A cheap first-character check so plain prose is not fed to the parser. */
    private static boolean looksLikeJson(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                continue;
            }
            return c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9')
                    || c == 't' || c == 'f' || c == 'n';
        }
        return false;
    }

    private static McpBoundaryException failed(String moduleId, String tool, String reason) {
        return new McpBoundaryException(new McpBoundaryError.ToolCallFailed(moduleId, tool, reason));
    }
}
