package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.events.TestEvents.json;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class AgentEventProjectionTest {

    @Test
    void runFailedDerivesErrorAndReasonFromTheReport() {
        JsonNode input = json("{\"type\":\"run_failed\",\"session_id\":\"s\",\"error_report\":{\"class\":\"llm\","
                + "\"reason\":{\"reason_type\":\"llm_auth_error\"},\"message\":\"LLM error: authentication failed (401)\"}}");
        JsonNode before = input.deepCopy();
        JsonNode out = AgentEventProjection.project("run_failed", input);
        assertThat(out).isEqualTo(json("{\"type\":\"run_failed\",\"session_id\":\"s\",\"error_report\":{\"class\":\"llm\","
                + "\"reason\":{\"reason_type\":\"llm_auth_error\"},\"message\":\"LLM error: authentication failed (401)\"},"
                + "\"error\":\"LLM error: authentication failed (401)\",\"reason\":\"llm_auth_error\"}"));
        assertThat(out.toString()).endsWith(",\"error\":\"LLM error: authentication failed (401)\",\"reason\":\"llm_auth_error\"}");
        assertThat(input).isEqualTo(before);
    }

    @Test
    void runFailedWithoutTypedReasonHasNoReason() {
        JsonNode input = json("{\"error_report\":{\"class\":\"tool\",\"message\":\"boom\"},\"reason\":\"stale\"}");
        JsonNode out = AgentEventProjection.project("run_failed", input);
        assertThat(out.get("error").asText()).isEqualTo("boom");
        assertThat(out.has("reason")).isFalse();
        assertThat(input.get("reason").asText()).isEqualTo("stale");
    }

    @Test
    void runFailedWithoutReportIsUnchanged() {
        JsonNode input = json("{\"error\":\"superseded\",\"reason\":\"superseded_by_later_run\"}");
        assertThat(AgentEventProjection.project("run_failed", input)).isSameAs(input);
    }

    @Test
    void toolResultReceivedDerivesResultFromTextBlocksAndMirrorsId() {
        JsonNode input = json("{\"type\":\"tool_result_received\",\"id\":\"toolu_1\",\"name\":\"search\",\"is_error\":false,"
                + "\"content\":[{\"type\":\"text\",\"text\":\"do\"},{\"type\":\"image\",\"data\":\"x\"},"
                + "{\"type\":\"text\",\"text\":\"ne\"},{\"type\":\"text\"}]}");
        JsonNode before = input.deepCopy();
        JsonNode out = AgentEventProjection.project("tool_result_received", input);
        assertThat(out.get("result").asText()).isEqualTo("done");
        assertThat(out.get("tool_call_id").asText()).isEqualTo("toolu_1");
        assertThat(out.get("content")).isEqualTo(input.get("content"));
        assertThat(input).isEqualTo(before);
    }

    @Test
    void toolExecutionCompletedMirrorsIdAndHasNoResult() {
        JsonNode input = json("{\"type\":\"tool_execution_completed\",\"id\":\"toolu_1\",\"name\":\"search\","
                + "\"is_error\":false,\"duration_ms\":12}");
        JsonNode out = AgentEventProjection.project("tool_execution_completed", input);
        assertThat(out).isEqualTo(json("{\"type\":\"tool_execution_completed\",\"id\":\"toolu_1\",\"name\":\"search\","
                + "\"is_error\":false,\"duration_ms\":12,\"tool_call_id\":\"toolu_1\"}"));
        assertThat(out.has("result")).isFalse();
        assertThat(input.has("tool_call_id")).isFalse();
    }

    @Test
    void everyOtherPayloadPassesThroughUnchanged() {
        JsonNode input = json("{\"id\":\"x\",\"error_report\":{\"message\":\"m\"},\"content\":[]}");
        assertThat(AgentEventProjection.project("text_delta", input)).isSameAs(input);
        assertThat(AgentEventProjection.project("run_failed", null)).isNull();
        JsonNode notObject = json("[1]");
        assertThat(AgentEventProjection.project("run_failed", notObject)).isSameAs(notObject);
    }

    @Test
    void projectsAgentEnvelopesAndLeavesModuleEnvelopesAlone() {
        EventEnvelope<UnifiedEvent> agent = EventEnvelope.agent("e", 1, "a", "tool_execution_completed",
                json("{\"id\":\"t1\"}"));
        EventEnvelope<UnifiedEvent> projected = AgentEventProjection.project(agent);
        assertThat(((UnifiedEvent.Agent) projected.event()).payload().get("tool_call_id").asText()).isEqualTo("t1");
        EventEnvelope<UnifiedEvent> module = EventEnvelope.module("e", 1, "m", "run_failed",
                json("{\"error_report\":{\"message\":\"m\"}}"));
        assertThat(AgentEventProjection.project(module)).isSameAs(module);
    }
}
