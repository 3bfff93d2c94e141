package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;

/** The JSON mappers of the MCP boundary. Thread-safe. */
public final class Json {

    /** Reads and writes protocol messages; unknown properties are ignored. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** The SDK's view of {@link #MAPPER}, passed explicitly so the SDK never picks a mapper by classpath order. */
    public static final McpJsonMapper MCP_MAPPER = new JacksonMcpJsonMapper(MAPPER);

    /** Parses exactly one JSON value (trailing content is an error); numbers keep their exact value. */
    public static final ObjectReader STRICT_READER = MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .with(JsonNodeFactory.withExactBigDecimals(true));

    private Json() {
    }

    /**
     * The first {@code max} characters of {@code text}, for log messages and error reasons: control characters (a
     * terminal escape, a carriage return) are written as backslash-u escapes, so a server's text cannot forge or
     * garble a log line.
     */
    public static String sample(String text, int max) {
        int end = Math.min(text.length(), max);
        StringBuilder sample = new StringBuilder(end + 16);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c >= 0x7f && c < 0xa0) {
                sample.append(String.format("\\u%04x", (int) c));
            } else {
                sample.append(c);
            }
        }
        return text.length() <= max ? sample.toString() : sample + "... (" + text.length() + " chars)";
    }
}
