package org.metaruntime.supervisor.internal.health;

import java.time.Duration;
import org.metaruntime.supervisor.SupervisionOptions;

/**
 * The restart delay: exponential in the number of restarts already in the intensity window, capped, with jitter.
 *
 * <p>{@code base = min(maxBackoff, initialBackoff * multiplier^previousRestarts)}, then
 * {@code delay = base * (1 + jitter * (2 * random - 1))}, clamped to {@code [0, maxBackoff]}. Stateless.
 */
public final class Backoff {

    private Backoff() {
    }

    /**
     * The delay before the next restart.
     *
     * @param options          initial delay, multiplier, cap and jitter fraction
     * @param previousRestarts restarts already counted in the current window (0 for the first)
     * @param random           a value in {@code [0, 1)}; 0.5 means no jitter
     */
    public static Duration delay(SupervisionOptions options, int previousRestarts, double random) {
        if (previousRestarts < 0) {
            throw new IllegalArgumentException("previousRestarts must be >= 0: " + previousRestarts);
        }
        if (!(random >= 0.0 && random <= 1.0)) {
            throw new IllegalArgumentException("random must be in [0, 1]: " + random);
        }
        double cap = nanos(options.maxBackoff());
        double base = Math.min(cap, nanos(options.initialBackoff()) * Math.pow(options.multiplier(), previousRestarts));
        double jittered = base * (1.0 + options.jitter() * (2.0 * random - 1.0));
        double clamped = Math.max(0.0, Math.min(cap, jittered));
        return Duration.ofNanos((long) clamped);
    }

    private static double nanos(Duration duration) {
        return duration.getSeconds() * 1e9 + duration.getNano();
    }
}
