package org.metaruntime.gateway.internal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * RFC 8785 (JSON Canonicalization Scheme) serialisation, and the {@code sha256:} schema hash built on it.
 * Numbers are IEEE 754 doubles printed the ECMAScript way (shortest round-trip digits); object keys are
 * sorted by UTF-16 code units. NaN, infinities and lone surrogates have no canonical form: writing them throws
 * {@link IllegalArgumentException}. Stateless.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** {@code sha256:} + the lowercase hex SHA-256 of the canonical UTF-8 form of {@code node}. */
    public static String schemaHash(JsonNode node) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(write(node).getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder("sha256:");
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /** The canonical form of {@code node}. */
    public static String write(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.append("null");
        } else if (node.isBoolean()) {
            out.append(node.booleanValue());
        } else if (node.isNumber()) {
            out.append(number(node.doubleValue()));
        } else if (node.isTextual()) {
            string(node.textValue(), out);
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(node.get(i), out);
            }
            out.append(']');
        } else if (node.isObject()) {
            List<String> names = new ArrayList<>();
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            names.sort(String::compareTo);
            out.append('{');
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                string(names.get(i), out);
                out.append(':');
                write(node.get(names.get(i)), out);
            }
            out.append('}');
        } else {
            string(node.asText(), out);
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        throw new IllegalArgumentException("RFC 8785 has no form for a lone surrogate (\\u"
                                + Integer.toHexString(c) + ")");
                    } else if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    /**
     * The decimal with the fewest digits that reads back as {@code d}; of two such, the one closer to {@code d},
     * and of two as close, the one with an even last digit (ECMAScript's rule).
     */
    private static BigDecimal shortest(double d) {
        BigDecimal exact = new BigDecimal(d);
        for (int precision = 1; precision <= 17; precision++) {
            BigDecimal down = exact.round(new MathContext(precision, RoundingMode.DOWN));
            BigDecimal up = exact.round(new MathContext(precision, RoundingMode.UP));
            boolean downOk = down.doubleValue() == d;
            boolean upOk = up.doubleValue() == d;
            if (downOk && upOk && down.compareTo(up) != 0) {
                int c = exact.subtract(down).abs().compareTo(up.subtract(exact).abs());
                if (c != 0) {
                    return c < 0 ? down : up;
                }
                return down.unscaledValue().testBit(0) ? up : down;
            }
            if (downOk) {
                return down;
            }
            if (upOk) {
                return up;
            }
        }
        return exact.round(MathContext.DECIMAL64);
    }

    /** ECMAScript {@code Number.prototype.toString} of {@code d}. */
    /** 2^53: below it a double holds every integer exactly. */
    private static final double SAFE_INTEGER_LIMIT = 9007199254740992d;

    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("RFC 8785 has no form for " + d);
        }
        if (d == 0) {
            return "0";
        }
        if (d == Math.rint(d) && Math.abs(d) < SAFE_INTEGER_LIMIT) {
            return Long.toString((long) d); // every integer below 2^53 is its own shortest form
        }
        BigDecimal shortest = shortest(d);
        shortest = shortest.stripTrailingZeros();
        String digits = shortest.unscaledValue().abs().toString();
        int k = digits.length();
        int n = k - shortest.scale();
        StringBuilder out = new StringBuilder(d < 0 ? "-" : "");
        if (k <= n && n <= 21) {
            out.append(digits).append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            int e = n - 1;
            out.append(digits.charAt(0));
            if (k > 1) {
                out.append('.').append(digits, 1, k);
            }
            out.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
        }
        return out.toString();
    }
}
