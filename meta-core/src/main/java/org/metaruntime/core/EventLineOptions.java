package org.metaruntime.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.core.internal.Checks;

/**
 * How a routed event-line call ends after its first line: the runtime waits up to {@code exitGrace} for the
 * process to exit, then stops its process tree; the payload is returned either way.
 *
 * <p>Immutable and thread-safe.
 *
 * @param exitGrace the wait for the exit after the first line; empty (the default) means
 *                  {@code EventLineRunner.DEFAULT_EXIT_GRACE} (500 ms); zero stops the process at once
 */
public record EventLineOptions(Optional<Duration> exitGrace) {

    private static final EventLineOptions DEFAULTS = new EventLineOptions(Optional.empty());

    /** Validates the grace; throws {@link ConfigException} naming the field. */
    public EventLineOptions {
        Objects.requireNonNull(exitGrace, "exitGrace");
        exitGrace.ifPresent(grace -> Checks.nonNegative(grace, "eventLineExitGrace"));
    }

    /** The event-line layer's default grace (500 ms). */
    public static EventLineOptions defaults() {
        return DEFAULTS;
    }

    /** Waits at most {@code grace} for the exit after the first line. */
    public static EventLineOptions exitGrace(Duration grace) {
        return new EventLineOptions(Optional.of(Objects.requireNonNull(grace, "grace")));
    }
}
