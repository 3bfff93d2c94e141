package org.metaruntime.events.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.SegmentedStringWriter;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

/**
 * The one configured Jackson mapper of meta-events, and a tree writer whose output reparses to the same
 * text.
 *
 * <p>Reading: strict JSON, trailing tokens rejected, nesting limited to {@link #MAX_NESTING_DEPTH}, floats
 * read as exact {@link BigDecimal}s (no precision loss, no overflow to infinity, trailing zeros kept).
 * Writing: non-ASCII text unescaped; doubles written through their decimal form, non-finite doubles as
 * {@code null}, so that serialise → parse → serialise is byte-identical.
 *
 * <p>Thread-safe: the mapper is configured once and never changed.
 */
public final class Json {

    /** Deepest array/object nesting accepted when reading. */
    public static final int MAX_NESTING_DEPTH = 512;

    /** The mapper, configured for reading as described above; shared, never reconfigured. */
    public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING_DEPTH).build())
                    .build())
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private Json() {
    }

    /**
     * Parses {@code text} into a tree.
     *
     * @return the tree, or null when the text is not one JSON value (any parse failure, including limits)
     */
    public static JsonNode parseOrNull(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            return node == null || node.isMissingNode() ? null : node;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            return null;
        }
    }

    /** Runs {@code body} with a generator writing into a string, and returns the string. */
    public static String write(GeneratorBody body) {
        // Jackson's own pooled segments, as ObjectMapper.writeValueAsString writes: no synchronized buffer that
        // is copied as it grows.
        BufferRecycler buffers = MAPPER.getFactory()._getBufferRecycler();
        try (SegmentedStringWriter out = new SegmentedStringWriter(buffers)) {
            try (JsonGenerator gen = MAPPER.getFactory().createGenerator(out)) {
                body.write(gen);
            }
            return out.getAndClear();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            buffers.releaseToPool();
        }
    }

    /** Writes {@code node}; numbers are written so that they reparse to the same text. */
    public static void writeTree(JsonGenerator gen, JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT:
                gen.writeStartObject();
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    gen.writeFieldName(field.getKey());
                    writeTree(gen, field.getValue());
                }
                gen.writeEndObject();
                break;
            case ARRAY:
                gen.writeStartArray();
                for (JsonNode element : node) {
                    writeTree(gen, element);
                }
                gen.writeEndArray();
                break;
            case NUMBER:
                writeNumber(gen, node);
                break;
            case STRING:
                gen.writeString(node.textValue());
                break;
            case BOOLEAN:
                gen.writeBoolean(node.booleanValue());
                break;
            case NULL:
            case MISSING:
                gen.writeNull();
                break;
            default:
                // BINARY and POJO nodes: written as Jackson writes them.
                MAPPER.writeTree(gen, node);
        }
    }

    private static void writeNumber(JsonGenerator gen, JsonNode node) throws IOException {
        if (node.isIntegralNumber()) {
            if (node.canConvertToLong()) {
                gen.writeNumber(node.longValue());
            } else {
                gen.writeNumber(node.bigIntegerValue());
            }
        } else if (node.isBigDecimal()) {
            writeDecimal(gen, node.decimalValue());
        } else {
            double value = node.doubleValue();
            if (Double.isFinite(value)) {
                // Reparsed as BigDecimal and rewritten with BigDecimal.toString: write that form now.
                writeDecimal(gen, new BigDecimal(node.isFloat() ? Float.toString(node.floatValue())
                        : Double.toString(value)));
            } else {
                gen.writeNull();
            }
        }
    }

    /**
     * Writes a decimal so that it reparses as the same decimal: a scale-0 value (read from {@code 41e0})
     * keeps an exponent, since plain {@code 41} would reparse as an integer.
     */
    private static void writeDecimal(JsonGenerator gen, BigDecimal value) throws IOException {
        if (value.scale() == 0) {
            gen.writeNumber(value.toPlainString() + "E0");
        } else {
            gen.writeNumber(value);
        }
    }

    /** Something that writes with a generator. */
    @FunctionalInterface
    public interface GeneratorBody {
        /** Writes. */
        void write(JsonGenerator gen) throws IOException;
    }
}
