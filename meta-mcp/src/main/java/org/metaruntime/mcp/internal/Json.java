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

    /** The first {@code max} characters of {@code text}, for log messages. */
    public static String sample(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "... (" + text.length() + " chars)";
    }
}
