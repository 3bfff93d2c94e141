package org.metaruntime.supervisor.internal.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import org.metaruntime.supervisor.SupervisionOptions;

/**
 * When the next automatic restart of a module happens: within the restart intensity (at most
 * {@link SupervisionOptions#maxRestarts()} restarts in a sliding {@link SupervisionOptions#restartWindow()}) after
 * the {@link Backoff} for the restarts already in the window, and beyond it never. Not thread-safe: the owner
 * guards it with its lock.
 */
public final class RestartPlanner {

    private final SupervisionOptions options;
    private final Clock clock;
    private final DoubleSupplier jitterSource;
    private final RestartWindow window;

    public RestartPlanner(SupervisionOptions options, Clock clock, DoubleSupplier jitterSource) {
        this.options = Objects.requireNonNull(options, "options");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.jitterSource = Objects.requireNonNull(jitterSource, "jitterSource");
        this.window = new RestartWindow(options.maxRestarts(), options.restartWindow());
    }

    /**
     * Counts a restart now and returns its delay; empty when the intensity is exceeded (nothing is counted then).
     */
    public Optional<Duration> next() {
        Instant now = clock.instant();
        int previousRestarts = window.count(now);
        if (!window.tryRecord(now)) {
            return Optional.empty();
        }
        return Optional.of(Backoff.delay(options, previousRestarts, jitterSource.getAsDouble()));
    }

    /** Forgets the restarts counted so far (a manual restart starts a fresh window). */
    public void reset() {
        window.reset();
    }

    /** The intensity in words, for the log: {@code "more than 5 restarts in PT60S"}. */
    public String intensity() {
        return "more than " + options.maxRestarts() + " restarts in " + options.restartWindow();
    }
}
