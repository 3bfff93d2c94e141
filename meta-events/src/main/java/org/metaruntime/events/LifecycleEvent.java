package org.metaruntime.events;

import java.util.Objects;

/**
 * One lifecycle step of the runtime, numbered by a monotonic {@code seq} starting at 0. A value.
 *
 * @param seq   the position in the lifecycle log, never negative
 * @param stage the stage reached
 */
public record LifecycleEvent(long seq, LifecycleStage stage) {

    /** Validates the event. */
    public LifecycleEvent {
        Objects.requireNonNull(stage, "stage");
        if (seq < 0) {
            throw new IllegalArgumentException("seq must not be negative: " + seq);
        }
    }
}
