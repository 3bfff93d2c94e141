package org.metaruntime.core.internal;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.StopLadder;

/**
 * A module's kept child after a successful start: an event-line process that wrote its first event, or an open MCP
 * connection ({@link McpChild}). Real children are processes; in-process children live in the JVM. Thread-safe.
 */
public interface ModuleChild {

    /** The process id, empty for an in-process child. */
    OptionalLong pid();

    /** The end of the child's stderr. */
    String stderrTail();

    /** The event-line child's first event; empty for MCP. */
    Optional<EventEnvelope<UnifiedEvent>> firstEvent();

    /** Completes once the child has ended, for whatever reason. */
    CompletableFuture<ChildExit> exit();

    /**
     * Stops the child with the ladder, bounded by the graces; idempotent.
     *
     * @return how many processes of its tree were still alive at the end
     */
    int stop(StopLadder ladder);

    /**
     * {@link #stop(StopLadder)} without waiting for it: completes with how many processes of the tree were still
     * alive at the end. A child whose stop never waits (an in-process one) may stop on the calling thread.
     */
    default CompletableFuture<Integer> stopAsync(StopLadder ladder) {
        return CompletableFuture.completedFuture(stop(ladder));
    }
}
