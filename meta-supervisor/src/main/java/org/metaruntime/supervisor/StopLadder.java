package org.metaruntime.supervisor;

import java.time.Duration;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * The graces of the stop ladder: close stdin, wait {@code stdinGrace}; snapshot the descendants, SIGTERM the
 * process and each descendant, wait {@code termGrace}; SIGKILL whatever is still alive, wait {@code killWait}.
 * Each wait ends early when there is nothing left to wait for. A zero grace skips the wait (the next step
 * follows at once); a zero {@code killWait} reports processes that were just sent SIGKILL as survivors if
 * they have not vanished yet. A grace longer than {@link Deadline#MAX_TIMEOUT} (100 years) is clamped to it.
 * Immutable.
 *
 * <pre>{@code
 * process.stop(new StopLadder(Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(1)));
 * }</pre>
 */
public record StopLadder(Duration stdinGrace, Duration termGrace, Duration killWait) {

    private static final StopLadder DEFAULTS = new StopLadder(Duration.ofSeconds(2), Duration.ofSeconds(2),
            Duration.ofSeconds(2));
    private static final StopLadder IMMEDIATE = new StopLadder(Duration.ZERO, Duration.ZERO, Duration.ZERO);

    /**
     * Validates the graces (an {@link InvalidOptionException} names the field) and clamps each to
     * {@link Deadline#MAX_TIMEOUT}.
     */
    public StopLadder {
        stdinGrace = Deadline.clamp(OptionChecks.nonNegative(stdinGrace, "stdinGrace"));
        termGrace = Deadline.clamp(OptionChecks.nonNegative(termGrace, "termGrace"));
        killWait = Deadline.clamp(OptionChecks.nonNegative(killWait, "killWait"));
    }

    /** This ladder without its stdin grace: for a child whose stdin was closed long ago. */
    public StopLadder withoutStdinGrace() {
        return stdinGrace.isZero() ? this : new StopLadder(Duration.ZERO, termGrace, killWait);
    }

    /** 2 s / 2 s / 2 s. */
    public static StopLadder defaults() {
        return DEFAULTS;
    }

    /** All zero: kill the tree now. */
    public static StopLadder immediate() {
        return IMMEDIATE;
    }

    /** The longest the ladder can wait in total: the sum of the three graces. */
    public Duration total() {
        return stdinGrace.plus(termGrace).plus(killWait);
    }
}
