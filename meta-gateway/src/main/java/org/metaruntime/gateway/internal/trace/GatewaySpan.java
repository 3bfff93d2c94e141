package org.metaruntime.gateway.internal.trace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import java.util.concurrent.atomic.AtomicBoolean;
import org.metaruntime.gateway.internal.pipeline.CallSpan;
import org.metaruntime.gateway.spi.CallOutcome;

/**
 * One call's span, and the trace context its pod gets: an OpenTelemetry span when spans are exported, else only its
 * ids and sampling flag. Thread-safe; ended once (later ends are ignored).
 */
final class GatewaySpan implements CallSpan {

    /** The SDK's span; null when spans are not exported. */
    private final Span span;
    private final String traceId;
    private final String spanId;
    private final boolean sampled;
    private final String tracestate;
    private final String baggage;
    private final String traceparent;
    private final AtomicBoolean ended = new AtomicBoolean();

    private GatewaySpan(Span span, String traceId, String spanId, boolean sampled, String tracestate, String baggage) {
        this.span = span;
        this.traceId = traceId;
        this.spanId = spanId;
        this.sampled = sampled;
        this.tracestate = tracestate;
        this.baggage = baggage;
        this.traceparent = "00-" + traceId + "-" + spanId + (sampled ? "-01" : "-00");
    }

    /** The span of an exported call. */
    static GatewaySpan exported(Span span, String tracestate, String baggage) {
        SpanContext context = span.getSpanContext();
        return new GatewaySpan(span, context.getTraceId(), context.getSpanId(), context.isSampled(), tracestate, baggage);
    }

    /** The span of a call whose span goes nowhere: its ids only. */
    static GatewaySpan unexported(String traceId, String spanId, boolean sampled, String tracestate, String baggage) {
        return new GatewaySpan(null, traceId, spanId, sampled, tracestate, baggage);
    }

    /** The SDK's span; null when spans are not exported. */
    Span span() {
        return span;
    }

    boolean sampled() {
        return sampled;
    }

    String tracestate() {
        return tracestate;
    }

    String baggage() {
        return baggage;
    }

    @Override
    public String traceId() {
        return traceId;
    }

    @Override
    public String spanId() {
        return spanId;
    }

    @Override
    public void stamp(ObjectNode meta) {
        meta.put("traceparent", traceparent);
        if (tracestate != null && !tracestate.isEmpty()) {
            meta.put("tracestate", tracestate);
        } else {
            meta.remove("tracestate");
        }
        if (baggage != null && !baggage.isEmpty()) {
            meta.put("baggage", baggage);
        } else {
            meta.remove("baggage");
        }
    }

    @Override
    public void end(CallOutcome outcome, Integer errorCode, boolean toolError) {
        if (span == null || !ended.compareAndSet(false, true)) {
            return;
        }
        if (errorCode != null) {
            span.setAttribute(GatewayTracer.ERROR_TYPE, Integer.toString(errorCode));
            span.setStatus(StatusCode.ERROR);
        } else if (toolError) {
            span.setAttribute(GatewayTracer.ERROR_TYPE, "tool_error");
            span.setStatus(StatusCode.ERROR);
        } else if (outcome != null && outcome != CallOutcome.OK) {
            span.setAttribute(GatewayTracer.ERROR_TYPE, outcome.wireName());
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
    }
}
