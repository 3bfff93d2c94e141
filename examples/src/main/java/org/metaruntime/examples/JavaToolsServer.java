package org.metaruntime.examples;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaruntime.module.ModuleServer;
import org.metaruntime.module.Tool;
import org.metaruntime.module.ToolException;

/**
 * {@code java-tools}: an example module written in Java with the meta-module SDK ({@link ModuleServer}). The demo
 * starts it as a child JVM: {@code java -cp <classpath> org.metaruntime.examples.JavaToolsServer}.
 *
 * <p>Tools:
 * <ul>
 *   <li>{@code sha256 {text}}: the SHA-256 digest of the text's UTF-8 bytes, as lowercase hex;</li>
 *   <li>{@code stats {numbers}}: count, sum, min, max and mean of a list of numbers, as structured content.</li>
 * </ul>
 * Bad arguments come back as a tool result with {@code isError: true}. The SDK skips an input line that is not
 * JSON, answers the requests already read when stdin ends, and writes diagnostics to stderr only.
 *
 * <p>Not meant to be used as a library: {@link #main(String[])} is the whole program.
 */
public final class JavaToolsServer {

    /** The id the demo gives this module. */
    public static final String MODULE_ID = "java-tools";

    private static final String TEXT_SCHEMA = """
            {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}""";
    private static final String NUMBERS_SCHEMA = """
            {"type": "object", "properties": {"numbers": {"type": "array", "items": {"type": "number"}}},
             "required": ["numbers"]}""";
    private static final String STATS_OUTPUT_SCHEMA = """
            {"type": "object", "properties": {"count": {"type": "integer"}, "sum": {"type": "number"},
             "min": {"type": "number"}, "max": {"type": "number"}, "mean": {"type": "number"}},
             "required": ["count", "sum"]}""";

    private JavaToolsServer() {
    }

    /**
     * Serves MCP on stdin/stdout until stdin is closed and every call read is answered.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        ModuleServer.builder(MODULE_ID)
                .tool(Tool.of("sha256", TEXT_SCHEMA).withDescription("SHA-256 digest of a text (UTF-8), as lowercase hex."),
                        arguments -> sha256Hex(text(arguments)))
                .tool(Tool.of("stats", NUMBERS_SCHEMA).withDescription("Count, sum, min, max and mean of a list of numbers.")
                        .withOutputSchema(STATS_OUTPUT_SCHEMA), arguments -> stats(numbers(arguments)))
                .build()
                .serve();
    }

    private static String text(JsonNode arguments) {
        JsonNode text = arguments.get("text");
        if (text == null || !text.isTextual()) {
            throw new ToolException("'text' must be a string");
        }
        return text.asText();
    }

    private static List<Double> numbers(JsonNode arguments) {
        JsonNode raw = arguments.get("numbers");
        if (raw == null || !raw.isArray()) {
            throw new ToolException("'numbers' must be an array of numbers");
        }
        List<Double> numbers = new ArrayList<>();
        for (JsonNode item : raw) {
            if (!item.isNumber()) {
                throw new ToolException("'numbers' must be an array of numbers");
            }
            numbers.add(item.asDouble());
        }
        return numbers;
    }

    private static Map<String, Object> stats(List<Double> numbers) {
        Map<String, Object> stats = new LinkedHashMap<>();
        double sum = 0;
        for (double n : numbers) {
            sum += n;
        }
        stats.put("count", numbers.size());
        stats.put("sum", sum);
        if (!numbers.isEmpty()) {
            stats.put("min", numbers.stream().mapToDouble(Double::doubleValue).min().orElseThrow());
            stats.put("max", numbers.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
            stats.put("mean", sum / numbers.size());
        }
        return stats;
    }

    private static String sha256Hex(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
