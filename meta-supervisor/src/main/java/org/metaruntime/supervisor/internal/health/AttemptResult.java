package org.metaruntime.supervisor.internal.health;

import java.util.Objects;

/**
 * What one start attempt gave: the healthy child, or the exception that failed it. The startup procedure and the
 * supervisor's restarts read an attempt the same way through {@link #run}: a {@code null} child is a failure, and an
 * {@link InterruptedException} is a failure that leaves the thread's interrupt flag set. Immutable.
 *
 * @param child   the started child, {@code null} when the attempt failed
 * @param failure why the attempt failed, {@code null} when it succeeded
 * @param <C>     what a child is
 */
public record AttemptResult<C>(C child, Exception failure) {

    public AttemptResult {
        if ((child == null) == (failure == null)) {
            throw new IllegalArgumentException("an attempt has either a child or a failure");
        }
    }

    /** Runs attempt number {@code n} on the calling thread. */
    public static <C> AttemptResult<C> run(StartAttempt<? extends C> attempt, int n) {
        Objects.requireNonNull(attempt, "attempt");
        try {
            C child = attempt.start(n);
            return child != null ? new AttemptResult<>(child, null)
                    : new AttemptResult<>(null, new IllegalStateException("the start attempt returned no child"));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return new AttemptResult<>(null, interrupted);
        } catch (Exception e) {
            return new AttemptResult<>(null, e);
        }
    }

    /** Whether the attempt gave a child. */
    public boolean succeeded() {
        return failure == null;
    }
}
