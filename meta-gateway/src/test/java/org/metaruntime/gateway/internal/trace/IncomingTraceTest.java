package org.metaruntime.gateway.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.pipeline.TraceHeaders;

class IncomingTraceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = "00-" + "a".repeat(32) + "-" + "b".repeat(16) + "-01";
    private static final String HEADER = "00-" + "c".repeat(32) + "-" + "d".repeat(16) + "-01";
    private static final Map<String, String> HEADERS = Map.of("traceparent", HEADER, "tracestate", "h=1", "baggage", "k=v");

    @Test
    void metaWinsOverHttpHeadersWhenItsTraceparentIsValid() throws Exception {
        TraceHeaders got = IncomingTrace.of(JSON.readTree("{\"_meta\":{\"traceparent\":\"" + META + "\",\"tracestate\":\"m=1\"}}"),
                HEADERS::get);
        assertThat(got).isEqualTo(new TraceHeaders(META, "m=1", null));
    }

    @Test
    void httpHeadersServeWhenMetaHasNoValidTraceparent() throws Exception {
        assertThat(IncomingTrace.of(JSON.readTree("{\"name\":\"t\"}"), HEADERS::get)).isEqualTo(new TraceHeaders(HEADER, "h=1", "k=v"));
        assertThat(IncomingTrace.of(JSON.readTree("{\"_meta\":{\"traceparent\":\"00-" + "0".repeat(32) + "-" + "b".repeat(16)
                + "-01\"}}"), HEADERS::get)).isEqualTo(new TraceHeaders(HEADER, "h=1", "k=v"));
    }

    @Test
    void withoutHttpTheMetaIsTakenAsReceived() throws Exception {
        assertThat(IncomingTrace.of(JSON.readTree("{\"_meta\":{\"traceparent\":\"junk\"}}"), null))
                .isEqualTo(new TraceHeaders("junk", null, null));
        assertThat(IncomingTrace.of(null, null)).isEqualTo(TraceHeaders.NONE);
    }

    @Test
    void anHttpCallWithoutAValidTraceparentInMetaTakesTheHeadersIntoMeta() throws Exception {
        com.fasterxml.jackson.databind.JsonNode message = JSON.readTree(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"_meta\":{\"x\":1}}}");
        com.fasterxml.jackson.databind.JsonNode out = IncomingTrace.withHttpContext(message, HEADERS::get);
        assertThat(out.at("/params/_meta").toString()).isEqualTo("{\"x\":1,\"traceparent\":\"" + HEADER
                + "\",\"tracestate\":\"h=1\",\"baggage\":\"k=v\"}");
        assertThat(message.at("/params/_meta/traceparent").isMissingNode()).isTrue();
        com.fasterxml.jackson.databind.JsonNode own = JSON.readTree("{\"method\":\"tools/call\",\"params\":{\"_meta\":{\"traceparent\":\""
                + META + "\"}}}");
        assertThat(IncomingTrace.withHttpContext(own, HEADERS::get)).isSameAs(own);
        com.fasterxml.jackson.databind.JsonNode list = JSON.readTree("{\"method\":\"tools/list\"}");
        assertThat(IncomingTrace.withHttpContext(list, HEADERS::get)).isSameAs(list);
        assertThat(IncomingTrace.withHttpContext(message, name -> null)).isSameAs(message);
    }
}
