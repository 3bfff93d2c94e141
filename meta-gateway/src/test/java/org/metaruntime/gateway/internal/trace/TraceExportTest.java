package org.metaruntime.gateway.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.net.URI;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.gateway.internal.pipeline.CallSpan;
import org.metaruntime.gateway.internal.pipeline.TraceHeaders;
import org.metaruntime.gateway.spi.CallOutcome;

@Timeout(60)
class TraceExportTest {

    private static String attribute(List<KeyValue> attributes, String key) {
        return attributes.stream().filter(a -> a.getKey().equals(key)).map(a -> a.getValue().getStringValue()).findFirst().orElse(null);
    }

    @Test
    void theOptionsEndpointGetsEveryEndedSpanAsOtlpProtobufBeforeTheTracerCloses() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            TraceExport export = TraceExport.resolve(null, receiver.url(),
                    Map.of("OTEL_EXPORTER_OTLP_HEADERS", "x-team=blue%20sky,x-other=1", "OTEL_SERVICE_NAME", "edge-gw"));
            assertThat(export.exporter()).isPresent();
            String traceId;
            String spanId;
            try (GatewayTracer tracer = GatewayTracer.create(export.exporter(), export.serviceName())) {
                CallSpan span = tracer.start("files__read", "c9", new TraceHeaders(
                        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null, null), null, null);
                traceId = span.traceId();
                spanId = span.spanId();
                span.end(CallOutcome.ERROR, -32001, false);
            }
            List<OtlpReceiver.Received> received = receiver.received();
            assertThat(received).hasSize(1);
            OtlpReceiver.Received one = received.get(0);
            assertThat(one.path()).isEqualTo("/v1/traces");
            assertThat(one.contentType()).isEqualTo("application/x-protobuf");
            assertThat(one.headers().get("X-team")).containsExactly("blue sky");
            var resourceSpans = one.request().getResourceSpans(0);
            assertThat(attribute(resourceSpans.getResource().getAttributesList(), "service.name")).isEqualTo("edge-gw");
            Span span = resourceSpans.getScopeSpans(0).getSpans(0);
            assertThat(span.getName()).isEqualTo("tools/call files__read");
            assertThat(span.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
            assertThat(HexFormat.of().formatHex(span.getTraceId().toByteArray())).isEqualTo(traceId);
            assertThat(HexFormat.of().formatHex(span.getSpanId().toByteArray())).isEqualTo(spanId);
            assertThat(HexFormat.of().formatHex(span.getParentSpanId().toByteArray())).isEqualTo("00f067aa0ba902b7");
            assertThat(attribute(span.getAttributesList(), "error.type")).isEqualTo("-32001");
            assertThat(attribute(span.getAttributesList(), "meta.call_id")).isEqualTo("c9");
        }
    }

    @Test
    void theEnvironmentNamesTheEndpointAndTheTracesEndpointIsUsedAsIs() {
        assertThat(TraceExport.tracesUrl(null, Map.of())).isEmpty();
        assertThat(TraceExport.tracesUrl(null, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318/"))).contains("http://c:4318/v1/traces");
        assertThat(TraceExport.tracesUrl(null, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://d:9/custom"))).contains("http://d:9/custom");
        assertThat(TraceExport.tracesUrl(URI.create("http://e:1"), Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318")))
                .contains("http://e:1/v1/traces");
        assertThat(TraceExport.resolve(null, null, Map.of()).exporter()).isEmpty();
        assertThat(TraceExport.resolve(null, null, Map.of()).serviceName()).isEqualTo("meta-gateway");
        assertThat(TraceExport.resolve(null, null, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1",
                "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")).exporter()).isPresent();
    }

    @Test
    void aFailingReceiverCostsNoCall() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            receiver.answer(500);
            TraceExport export = TraceExport.resolve(null, receiver.url(), Map.of());
            try (GatewayTracer tracer = GatewayTracer.create(export.exporter(), export.serviceName())) {
                for (int i = 0; i < 3; i++) {
                    CallSpan span = tracer.start("t", "c" + i, TraceHeaders.NONE, null, null);
                    span.end(CallOutcome.OK, null, false);
                }
            }
            assertThat(receiver.received()).isEmpty();
        }
    }
}
