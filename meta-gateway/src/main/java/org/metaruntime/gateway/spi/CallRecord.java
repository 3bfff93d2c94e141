package org.metaruntime.gateway.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One answered call, as a {@link CallListener} gets it: what the {@code gateway.call} audit event carries, plus
 * the whole principal and the span id.
 *
 * @param callId the gateway's id of the call, the one the pod receives as {@code _meta["mcp-meta/call"]}
 * @param parentCallId the outer call's id for a nested call; {@code null} for a client call
 * @param principal who made the call
 * @param profile the profile that allowed the call; for a denied call the principal's first; {@code null}: none
 * @param tool the outward name, or the name as given when it resolves to no tool
 * @param pod the pod; {@code null} when the name resolves to no tool
 * @param podTool the pod's own name of the tool; {@code null} when the name resolves to no tool
 * @param argsSha256 64 lowercase hex digits: SHA-256 of the canonical JSON of the arguments as received
 * @param argsBytes the byte length of that canonical JSON
 * @param outcome how the call ended
 * @param errorCode the JSON-RPC error code of the answer; {@code null} for {@code ok}, {@code cancelled} and
 *     {@code isError} results
 * @param durationMs from the pipeline's start to the answer
 * @param chain the call chain as the target gets it, this call last
 * @param traceId 32 lowercase hex digits
 * @param spanId 16 lowercase hex digits: the gateway's span of this call
 * @param arguments the redacted arguments when the gateway stores them, else {@code null}
 */
public record CallRecord(String callId, String parentCallId, Principal principal, String profile, String tool,
                         String pod, String podTool, String argsSha256, long argsBytes, CallOutcome outcome,
                         Integer errorCode, long durationMs, List<String> chain, String traceId, String spanId,
                         JsonNode arguments) {

    public CallRecord {
        chain = List.copyOf(chain);
    }
}
