package org.metaruntime.gateway.internal.cli;

import java.time.Duration;
import java.util.Objects;
import org.metaruntime.supervisor.Scheduler;

/**
 * Runs an action once its triggers have been quiet for a while: each {@link #trigger()} restarts the wait, so a burst
 * of triggers (an editor saving a file in several steps, a folder copied file by file) runs it once. The action runs
 * on the scheduler's thread. Thread-safe.
 */
final class Debounce {

    private final Scheduler scheduler;
    private final Duration quiet;
    private final Runnable action;
    private Scheduler.Cancellable pending;

    Debounce(Scheduler scheduler, Duration quiet, Runnable action) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.quiet = Objects.requireNonNull(quiet, "quiet");
        this.action = Objects.requireNonNull(action, "action");
    }

    /** Runs the action {@code quiet} from now, unless another trigger comes first. */
    synchronized void trigger() {
        if (pending != null) {
            pending.cancel();
        }
        pending = scheduler.schedule(this::fire, quiet);
    }

    private void fire() {
        synchronized (this) {
            pending = null;
        }
        action.run();
    }
}
