package org.metaruntime.gateway.internal.pipeline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.ThreadLocalRandom;
import org.metaruntime.gateway.spi.CallOutcome;

/**
 * The smallest {@link CallTracer}: each call gets a span id, in the incoming trace when its {@code traceparent} is
 * valid, else in a new random trace; nothing is exported. Pods get {@code _meta.traceparent} (and the incoming
 * {@code tracestate} and {@code baggage}). Thread-safe.
 */
public final class RandomTracer implements CallTracer {

    @Override
    public CallSpan start(String outward, String callId, TraceHeaders incoming, CallSpan parent, String sessionId) {
        String traceId = null;
        String flags = "01";
        String tracestate = null;
        String baggage = null;
        if (incoming != null && valid(incoming.traceparent())) {
            traceId = incoming.traceparent().substring(3, 35);
            flags = incoming.traceparent().substring(53, 55);
            tracestate = incoming.tracestate();
            baggage = incoming.baggage();
        } else if (parent != null) {
            traceId = parent.traceId();
        }
        if (traceId == null) {
            traceId = hex(16);
        }
        return new Span(traceId, hex(8), flags, tracestate, baggage);
    }

    /** Whether {@code traceparent} is W3C Trace Context level 1 ({@code 00-<32 hex>-<16 hex>-<2 hex>}, ids not zero). */
    static boolean valid(String traceparent) {
        if (traceparent == null || traceparent.length() != 55 || !traceparent.startsWith("00-")
                || traceparent.charAt(35) != '-' || traceparent.charAt(52) != '-') {
            return false;
        }
        String trace = traceparent.substring(3, 35);
        String span = traceparent.substring(36, 52);
        return lowerHex(trace) && lowerHex(span) && lowerHex(traceparent.substring(53))
                && !trace.chars().allMatch(c -> c == '0') && !span.chars().allMatch(c -> c == '0');
    }

    private static boolean lowerHex(String s) {
        return s.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    }

    private static String hex(int bytes) {
        StringBuilder out = new StringBuilder(bytes * 2);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < bytes; i++) {
            int b = random.nextInt(256);
            if (i == 0 && b == 0) {
                b = 1;
            }
            out.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
        }
        return out.toString();
    }

    private record Span(String traceId, String spanId, String flags, String tracestate, String baggage) implements CallSpan {
        @Override
        public void stamp(ObjectNode meta) {
            meta.put("traceparent", "00-" + traceId + "-" + spanId + "-" + flags);
            if (tracestate != null) {
                meta.put("tracestate", tracestate);
            }
            if (baggage != null) {
                meta.put("baggage", baggage);
            }
        }

        @Override
        public void end(CallOutcome outcome, Integer errorCode, boolean toolError) {
        }
    }
}
