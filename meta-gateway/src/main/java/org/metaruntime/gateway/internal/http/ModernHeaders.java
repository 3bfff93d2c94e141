package org.metaruntime.gateway.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpFields;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.RpcException;

/**
 * The headers a modern request must carry over HTTP, checked against its body: {@code MCP-Protocol-Version},
 * {@code Mcp-Method}, {@code Mcp-Name} (for the methods that name something) and {@code Mcp-Param-<Name>} for the
 * arguments a tool's input schema marks {@code x-mcp-header}. A value {@code =?base64?...?=} is decoded first.
 * Stateless.
 */
final class ModernHeaders {

    static final String METHOD_HEADER = "Mcp-Method";
    static final String NAME_HEADER = "Mcp-Name";
    static final String PARAM_HEADER_PREFIX = "Mcp-Param-";
    static final String SCHEMA_HEADER_KEY = "x-mcp-header";

    private ModernHeaders() {
    }

    /**
     * Checks {@code headers} against the request {@code message}.
     *
     * @param inputSchema the input schema of a served tool by outward name, empty when there is none
     * @throws RpcException -32020 naming the first header that is missing or disagrees with the body
     */
    static void check(HttpFields headers, JsonNode message, Function<String, Optional<JsonNode>> inputSchema) {
        String method = message.path("method").asText("");
        JsonNode params = message.path("params");
        String version = headers.get(StreamableHttp.VERSION_HEADER);
        if (version == null) {
            throw mismatch("missing " + StreamableHttp.VERSION_HEADER + " (" + Eras.MODERN + ")");
        }
        JsonNode bodyVersion = params.path("_meta").get(Eras.PROTOCOL_VERSION_KEY);
        if (bodyVersion != null && !version.equals(bodyVersion.asText())) {
            throw mismatch(StreamableHttp.VERSION_HEADER + " " + version + " differs from _meta[\"" + Eras.PROTOCOL_VERSION_KEY
                    + "\"] " + bodyVersion);
        }
        expect(headers, METHOD_HEADER, method, "method");
        String named = switch (method) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
            default -> null;
        };
        if (named != null) {
            expect(headers, NAME_HEADER, params.path(named).asText(""), "params." + named);
        }
        if ("tools/call".equals(method)) {
            inputSchema.apply(params.path("name").asText("")).ifPresent(schema -> checkParams(headers, schema, params.path("arguments")));
        }
    }

    /** The {@code Mcp-Param-<Name>} headers of the properties the schema marks, reached through {@code properties}. */
    private static void checkParams(HttpFields headers, JsonNode schema, JsonNode arguments) {
        JsonNode properties = schema.path("properties");
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> property = it.next();
            JsonNode value = arguments.get(property.getKey());
            if (value == null || value.isNull()) {
                continue;
            }
            JsonNode marked = property.getValue().get(SCHEMA_HEADER_KEY);
            if (marked != null && marked.isTextual()) {
                String expected = value.isTextual() ? value.textValue()
                        : value.isIntegralNumber() || value.isBoolean() ? value.asText() : null;
                if (expected != null) {
                    expect(headers, PARAM_HEADER_PREFIX + marked.textValue(), expected, "arguments." + property.getKey());
                }
            }
            if (property.getValue().has("properties")) {
                checkParams(headers, property.getValue(), value);
            }
        }
    }

    private static void expect(HttpFields headers, String header, String expected, String what) {
        String value = headers.get(header);
        if (value == null) {
            throw mismatch("missing " + header + " (" + what + ")");
        }
        if (!expected.equals(decoded(value))) {
            throw mismatch(header + " differs from " + what);
        }
    }

    /** A header value, its {@code =?base64?...?=} form decoded (an undecodable one as is). */
    static String decoded(String value) {
        if (value.length() >= 11 && value.regionMatches(true, 0, "=?base64?", 0, 9) && value.endsWith("?=")) {
            try {
                return new String(Base64.getDecoder().decode(value.substring(9, value.length() - 2)), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return value;
            }
        }
        return value;
    }

    private static RpcException mismatch(String message) {
        return new RpcException(Eras.HEADER_MISMATCH, "header mismatch: " + message);
    }
}
