package org.metaruntime.gateway.internal.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;
import java.util.Optional;
import org.metaruntime.gateway.internal.pipeline.TraceHeaders;

/** The parent a call's span gets from the trace context it came with: valid W3C Trace Context (level 1) only. */
final class IncomingContext {

    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

    private static final TextMapGetter<TraceHeaders> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TraceHeaders carrier) {
            return List.of("traceparent", "tracestate");
        }

        @Override
        public String get(TraceHeaders carrier, String key) {
            if (carrier == null) {
                return null;
            }
            return switch (key) {
                case "traceparent" -> carrier.traceparent();
                case "tracestate" -> carrier.tracestate();
                default -> null;
            };
        }
    };

    private IncomingContext() {
    }

    /**
     * The remote span context of {@code headers}' {@code traceparent} (with its {@code tracestate}); empty when it is
     * absent or not valid (malformed, version {@code ff}, all-zero trace or span id).
     */
    static Optional<SpanContext> parent(TraceHeaders headers) {
        if (headers == null || headers.traceparent() == null) {
            return Optional.empty();
        }
        SpanContext context = Span.fromContext(W3C.extract(Context.root(), headers, GETTER)).getSpanContext();
        return context.isValid() && context.isRemote() ? Optional.of(context) : Optional.empty();
    }
}
