package org.metaruntime.gateway.internal.pipeline;

/** Starts the span of each call (a SERVER span named {@code tools/call <outward name>}). Thread-safe. */
@FunctionalInterface
public interface CallTracer {

    /**
     * @param outward the outward name of the tool (or the name as given when it resolves to no tool)
     * @param callId the gateway's id of the call
     * @param incoming the trace context that came with the call ({@link TraceHeaders#NONE} when none)
     * @param parent the outer call's span for a nested call; {@code null} for a client call
     * @param sessionId the MCP session id over HTTP; {@code null} otherwise
     */
    CallSpan start(String outward, String callId, TraceHeaders incoming, CallSpan parent, String sessionId);
}
