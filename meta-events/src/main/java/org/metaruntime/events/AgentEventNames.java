package org.metaruntime.events;

import java.util.Objects;
import java.util.Set;

/**
 * The agent event names: projections of the agent's event variants. The runtime never synthesises these as
 * module events. Other names may appear (the set can grow); these are the ones the runtime knows.
 */
public final class AgentEventNames {

    // Run and turn.
    public static final String RUN_STARTED = "run_started";
    public static final String RETRYING = "retrying";
    public static final String RUN_COMPLETED = "run_completed";
    public static final String RUN_FAILED = "run_failed";
    public static final String TURN_STARTED = "turn_started";
    public static final String TURN_COMPLETED = "turn_completed";
    // Model output.
    public static final String REASONING_DELTA = "reasoning_delta";
    public static final String REASONING_COMPLETE = "reasoning_complete";
    public static final String TEXT_DELTA = "text_delta";
    public static final String TEXT_COMPLETE = "text_complete";
    // Tools.
    public static final String TOOL_CALL_REQUESTED = "tool_call_requested";
    public static final String TOOL_RESULT_RECEIVED = "tool_result_received";
    public static final String TOOL_EXECUTION_STARTED = "tool_execution_started";
    public static final String TOOL_EXECUTION_COMPLETED = "tool_execution_completed";
    public static final String TOOL_EXECUTION_TIMED_OUT = "tool_execution_timed_out";
    // Hooks.
    public static final String HOOK_STARTED = "hook_started";
    public static final String HOOK_COMPLETED = "hook_completed";
    public static final String HOOK_FAILED = "hook_failed";
    public static final String HOOK_DENIED = "hook_denied";
    // Compaction.
    public static final String COMPACTION_STARTED = "compaction_started";
    public static final String COMPACTION_COMPLETED = "compaction_completed";
    public static final String COMPACTION_FAILED = "compaction_failed";
    // Interaction.
    public static final String INTERACTION_COMPLETE = "interaction_complete";
    /** The interaction is paused at an external callback; it resumes under the same interaction id. */
    public static final String INTERACTION_CALLBACK_PENDING = "interaction_callback_pending";
    public static final String INTERACTION_FAILED = "interaction_failed";

    /** Every name above. */
    public static final Set<String> ALL = Set.of(
            RUN_STARTED, RETRYING, RUN_COMPLETED, RUN_FAILED, TURN_STARTED, TURN_COMPLETED,
            REASONING_DELTA, REASONING_COMPLETE, TEXT_DELTA, TEXT_COMPLETE,
            TOOL_CALL_REQUESTED, TOOL_RESULT_RECEIVED, TOOL_EXECUTION_STARTED, TOOL_EXECUTION_COMPLETED,
            TOOL_EXECUTION_TIMED_OUT,
            HOOK_STARTED, HOOK_COMPLETED, HOOK_FAILED, HOOK_DENIED,
            COMPACTION_STARTED, COMPACTION_COMPLETED, COMPACTION_FAILED,
            INTERACTION_COMPLETE, INTERACTION_CALLBACK_PENDING, INTERACTION_FAILED);

    private AgentEventNames() {
    }

    /**
     * Whether {@code name} ends an interaction: {@code interaction_complete} and {@code interaction_failed}
     * are terminals, {@code interaction_callback_pending} is not.
     */
    public static boolean isTerminal(String name) {
        Objects.requireNonNull(name, "name");
        return INTERACTION_COMPLETE.equals(name) || INTERACTION_FAILED.equals(name);
    }

    /** Whether {@code name} is one of the known agent event names. */
    public static boolean isKnown(String name) {
        Objects.requireNonNull(name, "name");
        return ALL.contains(name);
    }
}
