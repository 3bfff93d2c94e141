package org.metaruntime.gateway.internal.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Function;
import org.metaruntime.gateway.internal.pipeline.TraceHeaders;

/**
 * The trace context a call came with: {@code _meta.traceparent} (with {@code tracestate} and {@code baggage}) of its
 * {@code tools/call} params, else, over HTTP, the request's {@code traceparent}, {@code tracestate} and
 * {@code baggage} headers when {@code _meta} has no valid {@code traceparent}. Stateless.
 */
public final class IncomingTrace {

    private IncomingTrace() {
    }

    /**
     * @param params the {@code tools/call} (or {@code __mcp_meta_call__}) params; may be null
     * @param header the HTTP request's header by name (null when absent), or null for a call that came otherwise
     */
    public static TraceHeaders of(JsonNode params, Function<String, String> header) {
        TraceHeaders meta = fromMeta(params);
        if (IncomingContext.parent(meta).isPresent() || header == null) {
            return meta;
        }
        TraceHeaders http = new TraceHeaders(header.apply("traceparent"), header.apply("tracestate"), header.apply("baggage"));
        return IncomingContext.parent(http).isPresent() ? http : meta;
    }

    /**
     * {@code message} as the pipeline should read it: a {@code tools/call} whose {@code _meta} has no valid
     * {@code traceparent} takes the HTTP request's {@code traceparent}, {@code tracestate} and {@code baggage} headers
     * into its {@code _meta} when the header's {@code traceparent} is valid (a copy; {@code message} is not changed).
     * Any other message is returned as it is.
     */
    public static JsonNode withHttpContext(JsonNode message, Function<String, String> header) {
        if (!message.isObject() || !"tools/call".equals(message.path("method").asText(null))) {
            return message;
        }
        JsonNode params = message.get("params");
        TraceHeaders chosen = of(params, header);
        if (chosen.equals(fromMeta(params)) || chosen.traceparent() == null) {
            return message;
        }
        ObjectNode copy = ((ObjectNode) message).deepCopy();
        ObjectNode outParams = copy.get("params") instanceof
                ObjectNode p ? p : copy.putObject("params");
        ObjectNode meta = outParams.get("_meta") instanceof
                ObjectNode m ? m : outParams.putObject("_meta");
        meta.put("traceparent", chosen.traceparent());
        meta.remove("tracestate");
        meta.remove("baggage");
        if (chosen.tracestate() != null) {
            meta.put("tracestate", chosen.tracestate());
        }
        if (chosen.baggage() != null) {
            meta.put("baggage", chosen.baggage());
        }
        return copy;
    }

    /** The context in {@code params._meta}, as received. */
    public static TraceHeaders fromMeta(JsonNode params) {
        JsonNode meta = params == null ? null : params.get("_meta");
        if (meta == null || !meta.isObject()) {
            return TraceHeaders.NONE;
        }
        return new TraceHeaders(text(meta, "traceparent"), text(meta, "tracestate"), text(meta, "baggage"));
    }

    private static String text(JsonNode meta, String key) {
        JsonNode value = meta.get(key);
        return value != null && value.isTextual() ? value.textValue() : null;
    }
}
