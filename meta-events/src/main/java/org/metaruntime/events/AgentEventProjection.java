package org.metaruntime.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * The single projection every stored, streamed or logged agent payload goes through. Stateless and
 * thread-safe; it never mutates its input (a changed payload is a copy).
 *
 * <ul>
 *   <li>{@code run_failed} with an {@code error_report} object: keeps the report and adds
 *       {@code error} = {@code error_report.message} and {@code reason} = {@code error_report.reason.reason_type}
 *       ({@code reason} is removed when the report has no typed reason). Without a report: unchanged.</li>
 *   <li>{@code tool_result_received}: adds {@code result}, the concatenated {@code text} of the
 *       {@code content} blocks of type {@code text}, and mirrors {@code id} into {@code tool_call_id}.</li>
 *   <li>{@code tool_execution_completed}: mirrors {@code id} into {@code tool_call_id}.</li>
 *   <li>Every other payload passes through unchanged (the same instance).</li>
 * </ul>
 *
 * <pre>{@code
 * JsonNode shown = AgentEventProjection.project("run_failed", payload);
 * String error = shown.path("error").asText();
 * }</pre>
 */
public final class AgentEventProjection {

    private AgentEventProjection() {
    }

    /**
     * Projects an agent payload.
     *
     * @param eventType the agent event name
     * @param payload   the payload, or null (returned as is)
     * @return the projected payload: {@code payload} itself when nothing changes, otherwise a new node
     */
    public static JsonNode project(String eventType, JsonNode payload) {
        Objects.requireNonNull(eventType, "eventType");
        if (payload == null || !payload.isObject()) {
            return payload;
        }
        switch (eventType) {
            case AgentEventNames.RUN_FAILED:
                return projectRunFailed((ObjectNode) payload);
            case AgentEventNames.TOOL_RESULT_RECEIVED:
                return projectToolResult((ObjectNode) payload);
            case AgentEventNames.TOOL_EXECUTION_COMPLETED:
                return mirrorId((ObjectNode) payload);
            default:
                return payload;
        }
    }

    /** The envelope with its agent payload projected; module envelopes and unchanged payloads are returned as is. */
    public static EventEnvelope<UnifiedEvent> project(EventEnvelope<UnifiedEvent> envelope) {
        Objects.requireNonNull(envelope, "envelope");
        if (!(envelope.event() instanceof UnifiedEvent.Agent)) {
            return envelope;
        }
        UnifiedEvent.Agent agent = (UnifiedEvent.Agent) envelope.event();
        JsonNode projected = project(agent.eventType(), agent.payload());
        if (projected == agent.payload()) {
            return envelope;
        }
        return envelope.withEvent(new UnifiedEvent.Agent(agent.agentId(), agent.eventType(), projected));
    }

    private static JsonNode projectRunFailed(ObjectNode payload) {
        JsonNode report = payload.get("error_report");
        if (report == null || !report.isObject()) {
            return payload;
        }
        ObjectNode out = payload.deepCopy();
        JsonNode message = report.get("message");
        if (message != null && !message.isNull()) {
            out.set("error", message.deepCopy());
        }
        JsonNode reasonType = report.path("reason").get("reason_type");
        if (reasonType != null && !reasonType.isNull()) {
            out.set("reason", reasonType.deepCopy());
        } else {
            out.remove("reason");
        }
        return out;
    }

    private static JsonNode projectToolResult(ObjectNode payload) {
        ObjectNode out = (ObjectNode) mirrorId(payload);
        JsonNode content = payload.get("content");
        if (content != null && content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (JsonNode block : content) {
                JsonNode blockText = block.get("text");
                if ("text".equals(block.path("type").textValue()) && blockText != null && blockText.isTextual()) {
                    text.append(blockText.textValue());
                }
            }
            if (out == payload) {
                out = payload.deepCopy();
            }
            out.put("result", text.toString());
        }
        return out;
    }

    private static JsonNode mirrorId(ObjectNode payload) {
        JsonNode id = payload.get("id");
        if (id == null) {
            return payload;
        }
        ObjectNode out = payload.deepCopy();
        out.set("tool_call_id", id.deepCopy());
        return out;
    }
}
