package org.metaruntime.gateway.internal.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.SdkTracerProviderBuilder;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Duration;
import java.util.Optional;
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
 * the tracer closes. Thread-safe.
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

    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final boolean exporting;

    private GatewayTracer(SdkTracerProvider provider, boolean exporting) {
        this.provider = provider;
        this.tracer = provider.get("org.metaruntime.gateway");
        this.exporting = exporting;
    }

    /** A tracer whose spans go nowhere (their ids still reach the pods). */
    public static GatewayTracer unexported() {
        return create(Optional.empty(), TraceExport.DEFAULT_SERVICE_NAME);
    }

    /** A tracer that exports its spans to {@code exporter} (when present), as the service {@code serviceName}. */
    public static GatewayTracer create(Optional<SpanExporter> exporter, String serviceName) {
        SdkTracerProviderBuilder builder = SdkTracerProvider.builder()
                .setSampler(Sampler.parentBased(Sampler.alwaysOn()))
                .setResource(Resource.getDefault().merge(Resource.create(
                        io.opentelemetry.api.common.Attributes.of(AttributeKey.stringKey("service.name"), serviceName))));
        if (exporter.isPresent()) {
            builder.addSpanProcessor(BatchSpanProcessor.builder(new WarningExporter(exporter.get()))
                    .setScheduleDelay(EXPORT_DELAY).build());
        } else {
            builder.addSpanProcessor(new Unexported());
        }
        return new GatewayTracer(builder.build(), exporter.isPresent());
    }

    /** Takes spans nowhere; a tracer with no processor at all would give spans without ids. */
    private static final class Unexported implements SpanProcessor {
        @Override
        public void onStart(Context parentContext, ReadWriteSpan span) {
        }

        @Override
        public boolean isStartRequired() {
            return false;
        }

        @Override
        public void onEnd(ReadableSpan span) {
        }

        @Override
        public boolean isEndRequired() {
            return false;
        }
    }

    /** Whether ended spans are exported. */
    public boolean exporting() {
        return exporting;
    }

    @Override
    public CallSpan start(String outward, String callId, TraceHeaders incoming, CallSpan parent, String sessionId) {
        TraceHeaders headers = incoming == null ? TraceHeaders.NONE : incoming;
        Optional<SpanContext> remote = IncomingContext.parent(headers);
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
        } else if (parent instanceof GatewaySpan outer) {
            builder.setParent(Context.root().with(outer.span()));
            tracestate = outer.tracestate();
            baggage = headers.baggage() != null ? headers.baggage() : outer.baggage();
        } else {
            builder.setNoParent();
            tracestate = null;
            baggage = headers.baggage();
        }
        return new GatewaySpan(builder.startSpan(), tracestate, baggage);
    }

    private static String outerBaggage(CallSpan parent) {
        return parent instanceof GatewaySpan outer ? outer.baggage() : null;
    }

    /** Exports every ended span (bounded wait) and stops. */
    @Override
    public void close() {
        CompletableResultCode done = provider.shutdown().join(FLUSH_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        if (exporting && !done.isSuccess()) {
            log.warn("traces: not every span was exported before the gateway stopped");
        }
    }
}
