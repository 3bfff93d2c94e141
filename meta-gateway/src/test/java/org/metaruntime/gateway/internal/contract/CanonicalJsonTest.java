package org.metaruntime.gateway.internal.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** RFC 8785 serialisation: the RFC's own examples, and npm's {@code canonicalize} as an oracle on generated inputs. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CanonicalJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** RFC 8785 appendix B: IEEE 754 bit patterns and their canonical forms. */
    private static final Map<Long, String> APPENDIX_B = Map.ofEntries(
            Map.entry(0x0000000000000000L, "0"), Map.entry(0x8000000000000000L, "0"),
            Map.entry(0x0000000000000001L, "5e-324"), Map.entry(0x8000000000000001L, "-5e-324"),
            Map.entry(0x7fefffffffffffffL, "1.7976931348623157e+308"), Map.entry(0xffefffffffffffffL, "-1.7976931348623157e+308"),
            Map.entry(0x4340000000000000L, "9007199254740992"), Map.entry(0xc340000000000000L, "-9007199254740992"),
            Map.entry(0x4430000000000000L, "295147905179352830000"), Map.entry(0x44b52d02c7e14af5L, "9.999999999999997e+22"),
            Map.entry(0x44b52d02c7e14af6L, "1e+23"), Map.entry(0x44b52d02c7e14af7L, "1.0000000000000001e+23"),
            Map.entry(0x444b1ae4d6e2ef4eL, "999999999999999700000"), Map.entry(0x444b1ae4d6e2ef4fL, "999999999999999900000"),
            Map.entry(0x444b1ae4d6e2ef50L, "1e+21"), Map.entry(0x3eb0c6f7a0b5ed8cL, "9.999999999999997e-7"),
            Map.entry(0x3eb0c6f7a0b5ed8dL, "0.000001"), Map.entry(0x41b3de4355555553L, "333333333.3333332"),
            Map.entry(0x41b3de4355555554L, "333333333.33333325"), Map.entry(0x41b3de4355555555L, "333333333.3333333"),
            Map.entry(0x41b3de4355555556L, "333333333.3333334"), Map.entry(0x41b3de4355555557L, "333333333.33333343"),
            Map.entry(0xbecbf647612f3696L, "-0.0000033333333333333333"), Map.entry(0x43143ff3c1cb0959L, "1424953923781206.2"));

    @TempDir
    Path dir;

    private static String canonical(String json) throws Exception {
        return CanonicalJson.write(JSON.readTree(json));
    }

    @Test
    void numbersAreWrittenTheEcmaScriptWay() throws Exception {
        assertThat(canonical("[0, -0, 1, -1, 1.0, 100, 1e21, 1e20, 1e-7, 1e-6, 0.000001, 1E23, 4.50, 2e-3, 9007199254740992]"))
                .isEqualTo("[0,0,1,-1,1,100,1e+21,100000000000000000000,1e-7,0.000001,0.000001,1e+23,4.5,0.002,9007199254740992]");
        assertThat(canonical("[333333333.33333329, 5e-324, 1.7976931348623157e308, 295147905179352830000, -1.0E-15]"))
                .isEqualTo("[333333333.3333333,5e-324,1.7976931348623157e+308,295147905179352830000,-1e-15]");
        APPENDIX_B.forEach((bits, expected) -> assertThat(CanonicalJson.write(DoubleNode.valueOf(Double.longBitsToDouble(bits))))
                .as("0x%016x", bits).isEqualTo(expected));
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> CanonicalJson.write(DoubleNode.valueOf(bad))).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void theRfcsMainExample() throws Exception {
        String input = "{\"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],"
                + " \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\", \"literals\": [null, true, false]}";
        assertThat(canonical(input)).isEqualTo("{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                + "\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
    }

    @Test
    void keysAreSortedAndStringsEscapedMinimally() throws Exception {
        assertThat(canonical("{\"b\": [1, {\"z\": true, \"a\": null}], \"a\": \"日本語 🎉\\n\\u0001\\\"\"}"))
                .isEqualTo("{\"a\":\"日本語 🎉\\n\\u0001\\\"\",\"b\":[1,{\"a\":null,\"z\":true}]}");
        assertThatThrownBy(() -> CanonicalJson.write(NODES.textNode("lone \ud800 surrogate")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRfcsSortingExample() throws Exception {
        String input = "{\"\\u20ac\": \"Euro Sign\", \"\\r\": \"Carriage Return\", \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\","
                + " \"1\": \"One\", \"\\ud83d\\ude00\": \"Emoji: Grinning Face\", \"\\u0080\": \"Control\","
                + " \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"}";
        assertThat(canonical(input)).isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
                + "\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\","
                + "\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
    }

    @Test
    void theSchemaHashIsTheSha256OfTheCanonicalForm() throws Exception {
        // printf '%s' '{"type":"object"}' | sha256sum
        assertThat(CanonicalJson.schemaHash(JSON.readTree("{ \"type\" : \"object\" }")))
                .isEqualTo("sha256:a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0");
    }

    @Test
    void agreesWithNpmCanonicalizeOnGeneratedInputs() throws Exception {
        Random random = new Random(8785);
        List<JsonNode> docs = new ArrayList<>();
        for (long bits : APPENDIX_B.keySet()) {
            docs.add(NODES.arrayNode().add(Double.longBitsToDouble(bits)));
        }
        for (int i = 0; i < 3000; i++) {
            docs.add(value(random, 0));
        }
        List<String> inputs = new ArrayList<>();
        for (JsonNode doc : docs) {
            inputs.add(JSON.writeValueAsString(doc));
        }
        List<String> expected = Oracle.ask("canonicalize", inputs, dir);
        for (int i = 0; i < docs.size(); i++) {
            assertThat(CanonicalJson.write(docs.get(i))).as("input %s", inputs.get(i)).isEqualTo(expected.get(i));
        }
    }

    private static JsonNode value(Random random, int depth) {
        int kind = random.nextInt(depth >= 3 ? 4 : 6);
        switch (kind) {
            case 0:
                double d;
                do {
                    d = number(random);
                } while (Double.isInfinite(d));
                return NODES.numberNode(d);
            case 1:
                return NODES.textNode(text(random));
            case 2:
                return random.nextInt(3) == 0 ? NODES.nullNode() : NODES.booleanNode(random.nextBoolean());
            case 3:
                return NODES.numberNode(random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(2000) - 1000);
            case 4: {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    array.add(value(random, depth + 1));
                }
                return array;
            }
            default: {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(6); i > 0; i--) {
                    object.set(text(random), value(random, depth + 1));
                }
                return object;
            }
        }
    }

    private static double number(Random random) {
        double d;
        switch (random.nextInt(6)) {
            case 0:
                do {
                    d = Double.longBitsToDouble(random.nextLong());
                } while (Double.isNaN(d) || Double.isInfinite(d));
                return d;
            case 1:
                return (random.nextInt(2_000_000) - 1_000_000) / Math.pow(10, random.nextInt(12));
            case 2: {
                double edge = new double[] {1e21, 1e-6, 1e-7, 1e23, 9007199254740992.0, Double.MIN_VALUE, Double.MAX_VALUE}[random.nextInt(7)];
                return random.nextBoolean() ? Math.nextUp(edge) : Math.nextDown(edge);
            }
            case 3:
                return random.nextDouble() * Math.pow(10, random.nextInt(60) - 30);
            case 4:
                return Math.scalb(1.0, random.nextInt(2000) - 1000);
            default:
                return random.nextGaussian();
        }
    }

    private static String text(Random random) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(6); i > 0; i--) {
            switch (random.nextInt(6)) {
                case 0 -> s.append((char) random.nextInt(0x20));
                case 1 -> s.append("\"\\/€ö\u0080\ufb33\u2028".charAt(random.nextInt(8)));
                case 2 -> s.appendCodePoint(0x10000 + random.nextInt(0x10000));
                case 3 -> s.append((char) (0xe000 + random.nextInt(0x2000)));
                default -> s.append((char) ('a' + random.nextInt(26)));
            }
        }
        return s.toString();
    }
}
