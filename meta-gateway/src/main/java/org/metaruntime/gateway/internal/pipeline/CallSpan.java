package org.metaruntime.gateway.internal.pipeline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.metaruntime.gateway.spi.CallOutcome;

/** The span of one call. Ended once. */
public interface CallSpan {

    /** 32 lowercase hex digits. */
    String traceId();

    /** 16 lowercase hex digits: the gateway's span of this call. */
    String spanId();

    /** Puts {@code traceparent} (and {@code tracestate}, {@code baggage} when the call came with them) into the
     * {@code _meta} of the {@code tools/call} sent to the pod. */
    void stamp(ObjectNode meta);

    /**
     * Ends the span.
     *
     * @param errorCode the JSON-RPC code of a failed call; {@code null} otherwise
     * @param toolError whether the result had {@code isError: true}
     */
    void end(CallOutcome outcome, Integer errorCode, boolean toolError);
}
