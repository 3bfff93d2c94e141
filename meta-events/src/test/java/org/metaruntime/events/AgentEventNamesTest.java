package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class AgentEventNamesTest {

    @Test
    void onlyInteractionCompleteAndFailedAreTerminal() {
        assertThat(AgentEventNames.isTerminal("interaction_complete")).isTrue();
        assertThat(AgentEventNames.isTerminal("interaction_failed")).isTrue();
        assertThat(AgentEventNames.isTerminal("interaction_callback_pending")).isFalse();
        assertThat(AgentEventNames.ALL.stream().filter(AgentEventNames::isTerminal))
                .containsExactlyInAnyOrder("interaction_complete", "interaction_failed");
    }

    @Test
    void coversTheSeedNames() {
        assertThat(AgentEventNames.ALL).hasSize(25).contains("run_started", "retrying", "reasoning_delta",
                "tool_execution_timed_out", "hook_denied", "compaction_failed", "turn_completed");
        assertThat(AgentEventNames.isKnown("text_delta")).isTrue();
        assertThat(AgentEventNames.isKnown("mcp.ready")).isFalse();
    }

    @Test
    void lifecycleStagesUseTheirJsonNames() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        assertThat(mapper.writeValueAsString(LifecycleStage.MERGED_STREAM_STARTED)).isEqualTo("\"MergedStreamStarted\"");
        assertThat(mapper.readValue("\"ShutdownComplete\"", LifecycleStage.class)).isEqualTo(LifecycleStage.SHUTDOWN_COMPLETE);
        assertThat(LifecycleStage.fromJsonName("MobStarted")).isEqualTo(LifecycleStage.MOB_STARTED);
        assertThat(mapper.writeValueAsString(new LifecycleEvent(0, LifecycleStage.MODULES_STARTED)))
                .isEqualTo("{\"seq\":0,\"stage\":\"ModulesStarted\"}");
        assertThatThrownBy(() -> LifecycleStage.fromJsonName("mob_started")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LifecycleEvent(-1, LifecycleStage.MOB_STARTED))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
