package org.metaruntime.gateway.internal.trace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import java.util.concurrent.atomic.AtomicBoolean;
import org.metaruntime.gateway.internal.pipeline.CallSpan;
import org.metaruntime.gateway.spi.CallOutcome;

/** One call's span, and the trace context its pod gets. Thread-safe; ended once (later ends are ignored). */
final class GatewaySpan implements CallSpan {

    private final Span span;
    private final String tracestate;
    private final String baggage;
    private final String traceparent;
    private final AtomicBoolean ended = new AtomicBoolean();

    GatewaySpan(Span span, String tracestate, String baggage) {
        this.span = span;
        this.tracestate = tracestate;
        this.baggage = baggage;
        SpanContext context = span.getSpanContext();
        this.traceparent = "00-" + context.getTraceId() + "-" + context.getSpanId() + (context.isSampled() ? "-01" : "-00");
    }

    Span span() {
        return span;
    }

    String tracestate() {
        return tracestate;
    }

    String baggage() {
        return baggage;
    }

    @Override
    public String traceId() {
        return span.getSpanContext().getTraceId();
    }

    @Override
    public String spanId() {
        return span.getSpanContext().getSpanId();
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
        if (!ended.compareAndSet(false, true)) {
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
