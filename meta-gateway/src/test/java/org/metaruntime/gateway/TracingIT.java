package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.gateway.internal.trace.OtlpReceiver;
import org.metaruntime.testing.LeakCheck;

/**
 * Traces through {@code bin/meta-gateway --otlp-endpoint URL} with the TypeScript SDK client: a pod that answers the
 * {@code _meta} it received gets the caller's trace with the gateway's own span id, and a real OTLP/HTTP receiver
 * gets the gateway's SERVER span (flushed when the gateway stops).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TracingIT {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00f067aa0ba902b7";

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private static ObjectNode request(String tool, String traceparent) {
        ObjectNode step = NodeClient.step("request").put("method", "tools/call").put("schema", "any");
        ObjectNode params = step.putObject("params").put("name", tool);
        params.putObject("arguments");
        if (traceparent != null) {
            params.putObject("_meta").put("traceparent", traceparent).put("tracestate", "vendor=x");
        }
        return step;
    }

    @Test
    void thePodJoinsTheCallersTraceAndTheReceiverGetsTheGatewaysSpan() throws Exception {
        Path manifests = NodeClient.pinnedPod(dir, "");
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString(), "--otlp-endpoint",
                    receiver.url().toString()), List.of(
                    request("pinned__stable", "00-" + TRACE + "-" + PARENT + "-01"),
                    request("pinned__read", null)));
            JsonNode joined = NodeClient.JSON.readTree(session.at("/steps/0/ok/content/0/text").asText());
            String traceparent = joined.get("traceparent").asText();
            assertThat(traceparent).as(session.toString()).matches("00-" + TRACE + "-[0-9a-f]{16}-01");
            String gatewaySpan = traceparent.split("-")[2];
            assertThat(gatewaySpan).isNotEqualTo(PARENT);
            assertThat(joined.get("tracestate").asText()).isEqualTo("vendor=x");
            JsonNode fresh = NodeClient.JSON.readTree(session.at("/steps/1/ok/content/0/text").asText());
            assertThat(fresh.get("traceparent").asText()).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01").doesNotContain(TRACE);
            assertThat(fresh.has("tracestate")).isFalse();

            List<Span> spans = receiver.received().stream()
                    .flatMap(r -> r.request().getResourceSpansList().stream())
                    .flatMap(r -> r.getScopeSpansList().stream())
                    .flatMap(s -> s.getSpansList().stream()).toList();
            Span span = spans.stream().filter(s -> s.getName().equals("tools/call pinned__stable")).findFirst().orElseThrow();
            assertThat(span.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
            assertThat(HexFormat.of().formatHex(span.getTraceId().toByteArray())).isEqualTo(TRACE);
            assertThat(HexFormat.of().formatHex(span.getSpanId().toByteArray())).isEqualTo(gatewaySpan);
            assertThat(HexFormat.of().formatHex(span.getParentSpanId().toByteArray())).isEqualTo(PARENT);
            assertThat(spans).anyMatch(s -> s.getName().equals("tools/call pinned__read"));
            assertThat(span.getAttributesList()).noneMatch(a -> a.getKey().equals("mcp.session.id"));
            assertThat(receiver.received().get(0).request().getResourceSpans(0).getResource().getAttributesList())
                    .anyMatch(a -> a.getKey().equals("service.name") && a.getValue().getStringValue().equals("meta-gateway"));
        }
    }

    @Test
    void aLegacySseCallsSpanCarriesItsSessionId() throws Exception {
        Path manifests = NodeClient.pinnedPod(dir, "");
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            JsonNode session = NodeClient.session(NodeClient.Transport.SSE, List.of("--manifests", manifests.toString(),
                    "--otlp-endpoint", receiver.url().toString()), List.of(request("pinned__stable", null)),
                    NodeClient.JSON.createObjectNode());
            String sessionId = session.path("sessionId").asText();
            assertThat(sessionId).as(session.toString()).isNotEmpty();
            Span span = receiver.received().stream()
                    .flatMap(r -> r.request().getResourceSpansList().stream())
                    .flatMap(r -> r.getScopeSpansList().stream())
                    .flatMap(s -> s.getSpansList().stream())
                    .filter(s -> s.getName().equals("tools/call pinned__stable")).findFirst().orElseThrow();
            assertThat(span.getAttributesList()).as("the span carries the legacy SSE session's id")
                    .anyMatch(a -> a.getKey().equals("mcp.session.id") && a.getValue().getStringValue().equals(sessionId));
        }
    }

    @Test
    void overHttpTheRequestsTraceparentHeaderServesWhenMetaHasNone() throws Exception {
        Path manifests = NodeClient.pinnedPod(dir, "");
        ObjectNode script = NodeClient.JSON.createObjectNode();
        script.putObject("headers").put("traceparent", "00-" + TRACE + "-" + PARENT + "-01").put("baggage", "team=blue");
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            JsonNode session = NodeClient.session(NodeClient.Transport.STREAMABLE_HTTP, List.of("--manifests",
                    manifests.toString(), "--log-level", "info", "--otlp-endpoint", receiver.url().toString()),
                    List.of(request("pinned__stable", null)), script);
            JsonNode meta = NodeClient.JSON.readTree(session.at("/steps/0/ok/content/0/text").asText());
            assertThat(meta.get("traceparent").asText()).as(session.toString()).matches("00-" + TRACE + "-[0-9a-f]{16}-01")
                    .doesNotContain(PARENT);
            assertThat(meta.get("baggage").asText()).isEqualTo("team=blue");

            String sessionId = session.path("sessionId").asText();
            assertThat(sessionId).as(session.toString()).isNotEmpty();
            Span span = receiver.received().stream()
                    .flatMap(r -> r.request().getResourceSpansList().stream())
                    .flatMap(r -> r.getScopeSpansList().stream())
                    .flatMap(s -> s.getSpansList().stream())
                    .filter(s -> s.getName().equals("tools/call pinned__stable")).findFirst().orElseThrow();
            assertThat(span.getAttributesList()).as("the span carries the Mcp-Session-Id of the call's session")
                    .anyMatch(a -> a.getKey().equals("mcp.session.id") && a.getValue().getStringValue().equals(sessionId));
        }
    }
}
