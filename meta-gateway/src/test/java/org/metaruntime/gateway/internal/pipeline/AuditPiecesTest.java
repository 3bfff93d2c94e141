package org.metaruntime.gateway.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.spi.CallOutcome;
import org.metaruntime.gateway.spi.CallRecord;
import org.metaruntime.gateway.spi.Principal;

/** What an audit event is made of: the arguments' digest, their redaction, the payload and the trace ids. */
class AuditPiecesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theDigestIsOverCanonicalJsonAndAbsentArgumentsAreAnEmptyObject() throws Exception {
        ArgumentDigest a = ArgumentDigest.of(JSON.readTree("{\"b\": 1.0, \"a\": [\"é\", null]}"));
        ArgumentDigest b = ArgumentDigest.of(JSON.readTree("{\"a\":[\"é\",null],\"b\":1}"));
        assertThat(a).isEqualTo(b);
        assertThat(a.bytes()).isEqualTo("{\"a\":[\"é\",null],\"b\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        assertThat(ArgumentDigest.of(null)).isEqualTo(ArgumentDigest.of(JsonNodeFactory.instance.objectNode()));
        assertThat(ArgumentDigest.of(null).sha256())
                .isEqualTo("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"); // sha256("{}")
    }

    @Test
    void secretLookingKeysAreRedactedAtAnyDepth() throws Exception {
        JsonNode arguments = JSON.readTree("{\"user\":\"ada\",\"Password\":\"x\",\"nested\":{\"api-key\":\"k\",\"list\":"
                + "[{\"refresh_token\":\"t\",\"keep\":1}],\"client_secret\":{\"deep\":true}},\"Authorization\":\"Bearer z\"}");
        JsonNode redacted = ArgumentRedaction.redact(arguments);
        assertThat(redacted.toString()).isEqualTo("{\"user\":\"ada\",\"Password\":\"[redacted]\",\"nested\":{\"api-key\":"
                + "\"[redacted]\",\"list\":[{\"refresh_token\":\"[redacted]\",\"keep\":1}],\"client_secret\":\"[redacted]\"},"
                + "\"Authorization\":\"[redacted]\"}");
        assertThat(arguments.get("Password").asText()).as("the arguments themselves are untouched").isEqualTo("x");
    }

    @Test
    void thePayloadHasEveryKeyAndArgumentsOnlyWhenStored() {
        CallRecord record = new CallRecord("c1", null, new Principal("alice", "tokens", List.of(), Map.of("sub", "alice")), null,
                "nope__x", null, null, "ab", 2, CallOutcome.ERROR, -32602, 0, List.of(), "0af7651916cd43dd8448eb211c80319c",
                "b7ad6b7169203331", null);
        ObjectNode payload = AuditLog.payload(record);
        assertThat(payload.toString()).isEqualTo("{\"call_id\":\"c1\",\"parent_call_id\":null,\"principal\":\"alice\","
                + "\"auth\":\"tokens\",\"profile\":null,\"tool\":\"nope__x\",\"pod\":null,\"pod_tool\":null,\"args_sha256\":\"ab\","
                + "\"args_bytes\":2,\"outcome\":\"error\",\"error_code\":-32602,\"duration_ms\":0,\"chain\":[],"
                + "\"trace_id\":\"0af7651916cd43dd8448eb211c80319c\"}");
    }

    @Test
    void theTracerContinuesAValidIncomingTraceAndStampsItsOwnSpan() {
        RandomTracer tracer = new RandomTracer();
        String incoming = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        CallSpan span = tracer.start("a__b", "c1", new TraceHeaders(incoming, "k=v", "b=1"), null, null);
        assertThat(span.traceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(span.spanId()).matches("[0-9a-f]{16}").isNotEqualTo("b7ad6b7169203331");
        ObjectNode meta = JsonNodeFactory.instance.objectNode();
        span.stamp(meta);
        assertThat(meta.get("traceparent").asText()).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-" + span.spanId() + "-01");
        assertThat(meta.get("tracestate").asText()).isEqualTo("k=v");
        CallSpan fresh = tracer.start("a__b", "c2", new TraceHeaders("00-00000000000000000000000000000000-b7ad6b7169203331-01",
                null, null), null, null);
        assertThat(fresh.traceId()).matches("[0-9a-f]{32}").isNotEqualTo("00000000000000000000000000000000");
        CallSpan child = tracer.start("a__c", "c3", TraceHeaders.NONE, span, null);
        assertThat(child.traceId()).isEqualTo(span.traceId());
    }
}
