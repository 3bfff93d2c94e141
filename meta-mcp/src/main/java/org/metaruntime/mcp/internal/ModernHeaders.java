package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The HTTP headers of a request in the 2026-07-28 revision: {@code MCP-Protocol-Version}, {@code Mcp-Method} and,
 * where the request is about a named thing, {@code Mcp-Name}. Stateless.
 */
final class ModernHeaders {

    private ModernHeaders() {
    }

    /** Whether {@code message} is a request in the modern envelope (its {@code _meta} names {@code 2026-07-28}). */
    static boolean isModern(JsonNode message) {
        return Envelope.MODERN_VERSION.equals(message.path("params").path("_meta").path(Envelope.PROTOCOL_VERSION_KEY)
                .asText(null));
    }

    /** Adds the version, the method and (where it has one) the name {@code message} is about. */
    static void add(HttpRequest.Builder request, JsonNode message) {
        String method = message.path("method").asText("");
        request.header("MCP-Protocol-Version", Envelope.MODERN_VERSION).header("Mcp-Method", method);
        JsonNode params = message.path("params");
        JsonNode name = switch (method) {
            case McpSchema.METHOD_TOOLS_CALL, McpSchema.METHOD_PROMPT_GET -> params.get("name");
            case McpSchema.METHOD_RESOURCES_READ -> params.get("uri");
            case "tasks/get", "tasks/update", "tasks/cancel" -> params.get("taskId");
            default -> null;
        };
        if (name != null && name.isTextual()) {
            request.header("Mcp-Name", headerValue(name.textValue()));
        }
    }

    /** {@code text} as a header value: as is when it is printable ASCII, else in the {@code =?base64?...?=} form. */
    static String headerValue(String text) {
        boolean plain = !text.startsWith("=?") && !text.isEmpty() && text.chars().allMatch(c -> c >= 0x20 && c < 0x7f)
                && text.charAt(0) != ' ' && text.charAt(text.length() - 1) != ' ';
        return plain ? text : "=?base64?" + Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8))
                + "?=";
    }
}
