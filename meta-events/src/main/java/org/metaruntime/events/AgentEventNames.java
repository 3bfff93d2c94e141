package org.metaruntime.events;

import java.util.Objects;
import java.util.Set;

/**
 * The agent event names: projections of the agent's event variants. The runtime never synthesises these as
 * module events. Other names may appear (the set can grow); these are the ones the runtime knows.
 * Constants and stateless checks only; thread-safe.
 *
 * <pre>{@code
 * if (AgentEventNames.isTerminal(agent.eventType())) {
 *     interactionDone(agent.agentId());
 * }
 * }</pre>
 */
public final class AgentEventNames {

    // Run and turn.
    /** A run began. */
    public static final String RUN_STARTED = "run_started";
    /** The run is retrying. */
    public static final String RETRYING = "retrying";
    /** The run ended successfully. */
    public static final String RUN_COMPLETED = "run_completed";
    /** The run ended with an error; see {@link AgentEventProjection} for its projected payload. */
    public static final String RUN_FAILED = "run_failed";
    /** A turn of the run began. */
    public static final String TURN_STARTED = "turn_started";
    /** A turn of the run ended. */
    public static final String TURN_COMPLETED = "turn_completed";
    // Model output.
    /** A fragment of the model's reasoning. */
    public static final String REASONING_DELTA = "reasoning_delta";
    /** The reasoning is complete. */
    public static final String REASONING_COMPLETE = "reasoning_complete";
    /** A fragment of the model's text output. */
    public static final String TEXT_DELTA = "text_delta";
    /** The text output is complete. */
    public static final String TEXT_COMPLETE = "text_complete";
    // Tools.
    /** The model asked for a tool call. */
    public static final String TOOL_CALL_REQUESTED = "tool_call_requested";
    /** A tool call's result reached the agent; projected with {@code result} and {@code tool_call_id}. */
    public static final String TOOL_RESULT_RECEIVED = "tool_result_received";
    /** A tool call began executing. */
    public static final String TOOL_EXECUTION_STARTED = "tool_execution_started";
    /** A tool call finished executing; projected with {@code tool_call_id}. */
    public static final String TOOL_EXECUTION_COMPLETED = "tool_execution_completed";
    /** A tool call did not finish in time. */
    public static final String TOOL_EXECUTION_TIMED_OUT = "tool_execution_timed_out";
    // Hooks.
    /** A hook began. */
    public static final String HOOK_STARTED = "hook_started";
    /** A hook finished. */
    public static final String HOOK_COMPLETED = "hook_completed";
    /** A hook failed. */
    public static final String HOOK_FAILED = "hook_failed";
    /** A hook returned a denial. */
    public static final String HOOK_DENIED = "hook_denied";
    // Compaction.
    /** Compaction began. */
    public static final String COMPACTION_STARTED = "compaction_started";
    /** Compaction finished. */
    public static final String COMPACTION_COMPLETED = "compaction_completed";
    /** Compaction failed. */
    public static final String COMPACTION_FAILED = "compaction_failed";
    // Interaction.
    /** The interaction ended successfully (a terminal). */
    public static final String INTERACTION_COMPLETE = "interaction_complete";
    /** The interaction is paused at an external callback; it resumes under the same interaction id. */
    public static final String INTERACTION_CALLBACK_PENDING = "interaction_callback_pending";
    /** The interaction ended with an error (a terminal). */
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
