package org.metaruntime.gateway.internal.pipeline;

/**
 * The W3C trace context that came with a call, as received (not yet validated): from the {@code _meta} of its
 * {@code tools/call} (or of a pod's {@code __mcp_meta_call__}), else from the HTTP request's headers.
 *
 * @param traceparent {@code null} when absent
 * @param tracestate {@code null} when absent
 * @param baggage {@code null} when absent
 */
public record TraceHeaders(String traceparent, String tracestate, String baggage) {

    /** No trace context. */
    public static final TraceHeaders NONE = new TraceHeaders(null, null, null);
}
