package org.metaruntime.supervisor.internal.health;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Waits for a duration; the startup procedure uses it for {@code restartBackoff}. Tests inject one that records
 * the durations instead of sleeping. Called on the thread running the startup procedure, so an implementation
 * shared between modules started in parallel must be thread-safe; {@link #SYSTEM} is.
 *
 * <pre>{@code
 * List<Duration> slept = new ArrayList<>();
 * Sleeper recording = slept::add;
 * }</pre>
 */
@FunctionalInterface
public interface Sleeper {

    /** Sleeps on the calling thread ({@link TimeUnit#sleep}); thread-safe. */
    Sleeper SYSTEM = duration -> TimeUnit.NANOSECONDS.sleep(saturatedNanos(duration));

    /**
     * Waits for {@code duration}.
     *
     * @throws InterruptedException when the calling thread is interrupted while waiting
     */
    void sleep(Duration duration) throws InterruptedException;

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
