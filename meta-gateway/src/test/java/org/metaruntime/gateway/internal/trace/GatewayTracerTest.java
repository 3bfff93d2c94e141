package org.metaruntime.gateway.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.pipeline.CallSpan;
import org.metaruntime.gateway.internal.pipeline.TraceHeaders;
import org.metaruntime.gateway.spi.CallOutcome;

class GatewayTracerTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE + "-" + PARENT + "-01";

    /** Keeps what it is given. */
    static final class Kept implements SpanExporter {
        final List<SpanData> spans = new CopyOnWriteArrayList<>();

        @Override
        public CompletableResultCode export(Collection<SpanData> batch) {
            spans.addAll(batch);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    private static ObjectNode stamped(CallSpan span) {
        ObjectNode meta = JsonNodeFactory.instance.objectNode();
        span.stamp(meta);
        return meta;
    }

    @Test
    void aCallWithAValidTraceparentIsItsChildAndThePodGetsTheGatewaysSpanId() {
        Kept kept = new Kept();
        try (GatewayTracer tracer = GatewayTracer.create(Optional.of(kept), "meta-gateway")) {
            CallSpan span = tracer.start("files__read", "c1", new TraceHeaders(TRACEPARENT, "vendor=x", "k=v"), null, "sess-1");
            assertThat(span.traceId()).isEqualTo(TRACE);
            assertThat(span.spanId()).hasSize(16).isNotEqualTo(PARENT);
            ObjectNode meta = stamped(span);
            assertThat(meta.get("traceparent").asText()).isEqualTo("00-" + TRACE + "-" + span.spanId() + "-01");
            assertThat(meta.get("tracestate").asText()).isEqualTo("vendor=x");
            assertThat(meta.get("baggage").asText()).isEqualTo("k=v");
            span.end(CallOutcome.OK, null, false);
        }
        assertThat(kept.spans).hasSize(1);
        SpanData data = kept.spans.get(0);
        assertThat(data.getName()).isEqualTo("tools/call files__read");
        assertThat(data.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(data.getParentSpanId()).isEqualTo(PARENT);
        assertThat(data.getAttributes().get(GatewayTracer.METHOD)).isEqualTo("tools/call");
        assertThat(data.getAttributes().get(GatewayTracer.TOOL)).isEqualTo("files__read");
        assertThat(data.getAttributes().get(GatewayTracer.OPERATION)).isEqualTo("execute_tool");
        assertThat(data.getAttributes().get(GatewayTracer.CALL_ID)).isEqualTo("c1");
        assertThat(data.getAttributes().get(GatewayTracer.SESSION)).isEqualTo("sess-1");
        assertThat(data.getAttributes().get(GatewayTracer.ERROR_TYPE)).isNull();
        assertThat(data.getResource().getAttribute(io.opentelemetry.api.common.AttributeKey.stringKey("service.name")))
                .isEqualTo("meta-gateway");
    }

    @Test
    void invalidTraceparentsAreIgnoredWithTheirTracestate() {
        for (String bad : List.of("00-00000000000000000000000000000000-" + PARENT + "-01",
                "00-" + TRACE + "-0000000000000000-01", "ff-" + TRACE + "-" + PARENT + "-01",
                "00-" + TRACE.toUpperCase() + "-" + PARENT + "-01", "00-" + TRACE + "-" + PARENT + "-01-extra",
                "garbage", "")) {
            try (GatewayTracer tracer = GatewayTracer.unexported()) {
                CallSpan span = tracer.start("t", "c", new TraceHeaders(bad, "vendor=x", null), null, null);
                assertThat(span.traceId()).as(bad).isNotEqualTo(TRACE).hasSize(32).isNotEqualTo("0".repeat(32));
                ObjectNode meta = stamped(span);
                assertThat(meta.get("traceparent").asText()).as(bad).endsWith("-01");
                assertThat(meta.has("tracestate")).as(bad).isFalse();
            }
        }
    }

    @Test
    void withoutContextANewSampledTraceStartsAndIdsAreRealWhenNothingIsExported() {
        try (GatewayTracer tracer = GatewayTracer.unexported()) {
            CallSpan a = tracer.start("t", "c1", TraceHeaders.NONE, null, null);
            CallSpan b = tracer.start("t", "c2", TraceHeaders.NONE, null, null);
            assertThat(a.traceId()).isNotEqualTo(b.traceId()).matches("[0-9a-f]{32}");
            assertThat(a.spanId()).matches("[0-9a-f]{16}").isNotEqualTo("0".repeat(16));
            assertThat(stamped(a).get("traceparent").asText()).isEqualTo("00-" + a.traceId() + "-" + a.spanId() + "-01");
        }
    }

    @Test
    void anUnsampledParentGivesAnUnsampledChild() {
        try (GatewayTracer tracer = GatewayTracer.unexported()) {
            CallSpan span = tracer.start("t", "c", new TraceHeaders("00-" + TRACE + "-" + PARENT + "-00", null, null), null, null);
            assertThat(span.traceId()).isEqualTo(TRACE);
            assertThat(stamped(span).get("traceparent").asText()).isEqualTo("00-" + TRACE + "-" + span.spanId() + "-00");
        }
    }

    @Test
    void aNestedCallIsAChildOfThePodsOwnContextElseOfTheOuterCall() {
        Kept kept = new Kept();
        try (GatewayTracer tracer = GatewayTracer.create(Optional.of(kept), "meta-gateway")) {
            CallSpan outer = tracer.start("a__x", "c1", new TraceHeaders(TRACEPARENT, "vendor=x", "k=v"), null, null);
            CallSpan inherited = tracer.start("b__y", "c2", TraceHeaders.NONE, outer, null);
            assertThat(inherited.traceId()).isEqualTo(TRACE);
            ObjectNode meta = stamped(inherited);
            assertThat(meta.get("tracestate").asText()).isEqualTo("vendor=x");
            assertThat(meta.get("baggage").asText()).isEqualTo("k=v");
            String own = "00-" + "1".repeat(32) + "-" + "2".repeat(16) + "-01";
            CallSpan podOwn = tracer.start("b__y", "c3", new TraceHeaders(own, null, null), outer, null);
            assertThat(podOwn.traceId()).isEqualTo("1".repeat(32));
            inherited.end(CallOutcome.ERROR, -32602, false);
            podOwn.end(CallOutcome.ERROR, null, true);
            outer.end(CallOutcome.OK, null, false);
        }
        SpanData inherited = kept.spans.stream().filter(s -> "c2".equals(s.getAttributes().get(GatewayTracer.CALL_ID))).findFirst().orElseThrow();
        SpanData outer = kept.spans.stream().filter(s -> "c1".equals(s.getAttributes().get(GatewayTracer.CALL_ID))).findFirst().orElseThrow();
        SpanData podOwn = kept.spans.stream().filter(s -> "c3".equals(s.getAttributes().get(GatewayTracer.CALL_ID))).findFirst().orElseThrow();
        assertThat(inherited.getParentSpanId()).isEqualTo(outer.getSpanId());
        assertThat(inherited.getAttributes().get(GatewayTracer.ERROR_TYPE)).isEqualTo("-32602");
        assertThat(podOwn.getParentSpanId()).isEqualTo("2".repeat(16));
        assertThat(podOwn.getAttributes().get(GatewayTracer.ERROR_TYPE)).isEqualTo("tool_error");
    }

    @Test
    void withNothingExportedANestedCallKeepsTheOuterCallsTraceFlagAndContext() {
        try (GatewayTracer tracer = GatewayTracer.unexported()) {
            assertThat(tracer.exporting()).isFalse();
            CallSpan outer = tracer.start("a__x", "c1", new TraceHeaders("00-" + TRACE + "-" + PARENT + "-00", "vendor=x", "k=v"),
                    null, null);
            CallSpan inherited = tracer.start("b__y", "c2", TraceHeaders.NONE, outer, null);
            assertThat(inherited.traceId()).isEqualTo(TRACE);
            assertThat(inherited.spanId()).isNotEqualTo(outer.spanId()).matches("[0-9a-f]{16}");
            ObjectNode meta = stamped(inherited);
            assertThat(meta.get("traceparent").asText()).isEqualTo("00-" + TRACE + "-" + inherited.spanId() + "-00");
            assertThat(meta.get("tracestate").asText()).isEqualTo("vendor=x");
            assertThat(meta.get("baggage").asText()).isEqualTo("k=v");
            CallSpan ownBaggage = tracer.start("b__y", "c3", new TraceHeaders(null, null, "own=1"), outer, null);
            assertThat(stamped(ownBaggage).get("baggage").asText()).isEqualTo("own=1");
            inherited.end(CallOutcome.ERROR, -32602, false);
            outer.end(CallOutcome.OK, null, false);
        }
    }
}
