package org.metaruntime.gateway.internal.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceId;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.metaruntime.gateway.internal.pipeline.CallSpan;
import org.metaruntime.gateway.internal.pipeline.CallTracer;
import org.metaruntime.gateway.internal.pipeline.TraceHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's {@link CallTracer} on the OpenTelemetry SDK: a SERVER span per call, child of the context the call
 * came with (else of the outer call's span, else a new trace, which is sampled). Spans have real ids whether or not
 * they are exported; with an exporter, ended spans are batched to it (within a second of their end) and flushed when
 * the tracer closes. Without one, no SDK span is made: a call gets its ids, parent and sampling flag by the same rules
 * (random non-zero ids, the parent's trace and flag, a new trace sampled) and nothing else. Thread-safe.
 */
public final class GatewayTracer implements CallTracer, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GatewayTracer.class);

    static final AttributeKey<String> METHOD = AttributeKey.stringKey("mcp.method.name");
    static final AttributeKey<String> TOOL = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> CALL_ID = AttributeKey.stringKey("meta.call_id");
    static final AttributeKey<String> SESSION = AttributeKey.stringKey("mcp.session.id");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    /** How long closing waits for the last spans to reach the exporter. */
    private static final Duration FLUSH_BOUND = Duration.ofSeconds(5);
    /** How long an ended span waits in the batch at most. */
    private static final Duration EXPORT_DELAY = Duration.ofSeconds(1);

    /** The SDK's provider and tracer; null when spans are not exported. */
    private final SdkTracerProvider provider;
    private final Tracer tracer;

    private GatewayTracer(SdkTracerProvider provider) {
        this.provider = provider;
        this.tracer = provider == null ? null : provider.get("org.metaruntime.gateway");
    }

    /** A tracer whose spans go nowhere (their ids still reach the pods). */
    public static GatewayTracer unexported() {
        return create(Optional.empty(), TraceExport.DEFAULT_SERVICE_NAME);
    }

    /** A tracer that exports its spans to {@code exporter} (when present), as the service {@code serviceName}. */
    public static GatewayTracer create(Optional<SpanExporter> exporter, String serviceName) {
        if (exporter.isEmpty()) {
            return new GatewayTracer(null);
        }
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setSampler(Sampler.parentBased(Sampler.alwaysOn()))
                .setResource(Resource.getDefault().merge(Resource.create(
                        io.opentelemetry.api.common.Attributes.of(AttributeKey.stringKey("service.name"), serviceName))))
                .addSpanProcessor(BatchSpanProcessor.builder(new WarningExporter(exporter.get()))
                        .setScheduleDelay(EXPORT_DELAY).build())
                .build();
        return new GatewayTracer(provider);
    }

    /** Whether ended spans are exported. */
    public boolean exporting() {
        return provider != null;
    }

    @Override
    public CallSpan start(String outward, String callId, TraceHeaders incoming, CallSpan parent, String sessionId) {
        TraceHeaders headers = incoming == null ? TraceHeaders.NONE : incoming;
        Optional<SpanContext> remote = IncomingContext.parent(headers);
        if (tracer == null) {
            return unexported(headers, remote, parent);
        }
        SpanBuilder builder = tracer.spanBuilder("tools/call " + outward)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(METHOD, "tools/call")
                .setAttribute(TOOL, outward)
                .setAttribute(OPERATION, "execute_tool");
        if (callId != null) {
            builder.setAttribute(CALL_ID, callId);
        }
        if (sessionId != null) {
            builder.setAttribute(SESSION, sessionId);
        }
        String tracestate;
        String baggage;
        if (remote.isPresent()) {
            builder.setParent(Context.root().with(Span.wrap(remote.get())));
            tracestate = headers.tracestate();
            baggage = headers.baggage() != null ? headers.baggage() : outerBaggage(parent);
        } else if (parent instanceof GatewaySpan outer && outer.span() != null) {
            builder.setParent(Context.root().with(outer.span()));
            tracestate = outer.tracestate();
            baggage = headers.baggage() != null ? headers.baggage() : outer.baggage();
        } else {
            builder.setNoParent();
            tracestate = null;
            baggage = headers.baggage();
        }
        return GatewaySpan.exported(builder.startSpan(), tracestate, baggage);
    }

    /** A span that goes nowhere, with the ids, parent and flag the SDK's sampler and id generator would give it. */
    private static CallSpan unexported(TraceHeaders headers, Optional<SpanContext> remote, CallSpan parent) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String spanId = SpanId.fromLong(nonZero(random));
        if (remote.isPresent()) {
            return GatewaySpan.unexported(remote.get().getTraceId(), spanId, remote.get().isSampled(), headers.tracestate(),
                    headers.baggage() != null ? headers.baggage() : outerBaggage(parent));
        }
        if (parent instanceof GatewaySpan outer) {
            return GatewaySpan.unexported(outer.traceId(), spanId, outer.sampled(), outer.tracestate(),
                    headers.baggage() != null ? headers.baggage() : outer.baggage());
        }
        return GatewaySpan.unexported(TraceId.fromLongs(random.nextLong(), nonZero(random)), spanId, true, null,
                headers.baggage());
    }

    private static long nonZero(ThreadLocalRandom random) {
        long id;
        do {
            id = random.nextLong();
        } while (id == 0);
        return id;
    }

    private static String outerBaggage(CallSpan parent) {
        return parent instanceof GatewaySpan outer ? outer.baggage() : null;
    }

    /** Exports every ended span (bounded wait) and stops. */
    @Override
    public void close() {
        if (provider == null) {
            return;
        }
        CompletableResultCode done = provider.shutdown().join(FLUSH_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        if (!done.isSuccess()) {
            log.warn("traces: not every span was exported before the gateway stopped");
        }
    }
}
