package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;

/**
 * Maps a {@code tools/call} result to the call's payload:
 * {@code structuredContent} when present; else, when every content block is text, the concatenated text
 * parsed as JSON when it parses, otherwise as a JSON string; else the content blocks as sent.
 * Numbers in parsed text keep their exact value (a decimal stays a decimal). A result with {@code isError: true}
 * fails with {@link McpBoundaryError.ToolReturnedError} carrying the whole result. Stateless and thread-safe.
 */
public final class ToolResults {

    private ToolResults() {
    }

    /** The whole result as the SDK's record, or a {@link McpBoundaryException} carrying {@code ToolCallFailed}. */
    public static McpSchema.CallToolResult toResult(String moduleId, String tool, JsonNode result) {
        check(moduleId, tool, result);
        try {
            return Json.MCP_MAPPER.convertValue(result, McpSchema.CallToolResult.class);
        } catch (RuntimeException e) {
            throw failed(moduleId, tool, "the server sent a tools/call result that is not valid: " + e.getMessage());
        }
    }

    /** {@code result} itself once it has a {@code CallToolResult}'s shape, or a {@link McpBoundaryException} carrying {@code ToolCallFailed}. */
    public static JsonNode checked(String moduleId, String tool, JsonNode result) {
        check(moduleId, tool, result);
        return result;
    }

    /**
     * The payload of {@code result}; a {@link McpBoundaryException} carrying {@code ToolReturnedError} when it has
     * {@code isError: true}, or {@code ToolCallFailed} when it is malformed.
     */
    public static JsonNode toPayload(String moduleId, String tool, JsonNode result) {
        check(moduleId, tool, result);
        JsonNode content = result.get("content");
        if (result.path("isError").asBoolean(false)) {
            throw new McpBoundaryException(new McpBoundaryError.ToolReturnedError(moduleId, tool,
                    toResult(moduleId, tool, result)));
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

    /**
     * A bare server's answer as a {@code CallToolResult}: unchanged when it is one (an object with a {@code content}
     * array), else {@code {"content":[{"type":"text","text":<answer as JSON>}],"structuredContent":<answer>}}.
     */
    public static JsonNode wrapBare(JsonNode answer) {
        if (answer != null && answer.isObject() && answer.path("content").isArray()) {
            return answer;
        }
        JsonNode value = answer == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : answer;
        com.fasterxml.jackson.databind.node.ObjectNode wrapped = Json.MAPPER.createObjectNode();
        wrapped.putArray("content").addObject().put("type", "text").put("text", value.toString());
        wrapped.set("structuredContent", value);
        return wrapped;
    }

    private static void check(String moduleId, String tool, JsonNode result) {
        if (result == null || !result.isObject()) {
            throw failed(moduleId, tool, "the server sent a tools/call result that is not an object");
        }
        JsonNode content = result.get("content");
        if (content != null && !content.isNull() && !content.isArray()) {
            throw failed(moduleId, tool, "the server sent a tools/call result whose content is not an array");
        }
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
