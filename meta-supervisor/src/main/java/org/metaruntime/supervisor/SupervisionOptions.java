package org.metaruntime.supervisor;

import java.time.Duration;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * How the runtime's supervision restarts a module whose kept child failed after startup.
 *
 * <p>The delay before a restart is {@code initialBackoff * multiplier^k}, where {@code k} is the number of restarts
 * already in the intensity window, capped at {@code maxBackoff}, then spread by {@code ±jitter} (a fraction) and
 * capped again. At most {@code maxRestarts} restarts are made in any sliding {@code restartWindow}; one more failure
 * stops the module.
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th><th>meaning of zero</th></tr>
 *   <tr><td>{@code initialBackoff}</td><td>500 ms</td><td>restart at once</td></tr>
 *   <tr><td>{@code multiplier}</td><td>2.0</td><td>(must be {@code >= 1})</td></tr>
 *   <tr><td>{@code maxBackoff}</td><td>30 s</td><td>every restart at once (must be {@code >= initialBackoff})</td></tr>
 *   <tr><td>{@code jitter}</td><td>0.2</td><td>no jitter (must be in {@code [0, 1]})</td></tr>
 *   <tr><td>{@code maxRestarts}</td><td>5</td><td>never restart automatically: a failure stops the module</td></tr>
 *   <tr><td>{@code restartWindow}</td><td>60 s</td><td>(must be positive)</td></tr>
 * </table>
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * SupervisionOptions options = SupervisionOptions.builder()
 *         .initialBackoff(Duration.ofMillis(50))
 *         .maxRestarts(3)
 *         .build();
 * }</pre>
 *
 * @param initialBackoff the delay before the first restart in a window
 * @param multiplier     the growth of the delay per restart already in the window
 * @param maxBackoff     the cap on the delay
 * @param jitter         the fraction by which a delay is spread at random, both ways
 * @param maxRestarts    the most restarts in one {@code restartWindow}
 * @param restartWindow  the sliding window of the restart intensity
 */
public record SupervisionOptions(Duration initialBackoff, double multiplier, Duration maxBackoff, double jitter,
                                 int maxRestarts, Duration restartWindow) {

    private static final SupervisionOptions DEFAULTS = builder().build();

    /**
     * Validates the options.
     *
     * @throws InvalidOptionException naming the first invalid field
     */
    public SupervisionOptions {
        OptionChecks.nonNegative(initialBackoff, "initialBackoff");
        checkMultiplier(multiplier);
        OptionChecks.nonNegative(maxBackoff, "maxBackoff");
        checkJitter(jitter);
        OptionChecks.nonNegative(maxRestarts, "maxRestarts");
        OptionChecks.positive(restartWindow, "restartWindow");
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new InvalidOptionException("maxBackoff", "must be >= initialBackoff (" + initialBackoff + "), got "
                    + maxBackoff);
        }
    }

    private static double checkMultiplier(double multiplier) {
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new InvalidOptionException("multiplier", "must be a finite number >= 1, got " + multiplier);
        }
        return multiplier;
    }

    private static double checkJitter(double jitter) {
        if (!(jitter >= 0.0 && jitter <= 1.0)) {
            throw new InvalidOptionException("jitter", "must be in [0, 1], got " + jitter);
        }
        return jitter;
    }

    /** The defaults: 500 ms, 2.0, 30 s, 0.2, 5 restarts in 60 s (the runtime's defaults too). */
    public static SupervisionOptions defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .initialBackoff(initialBackoff)
                .multiplier(multiplier)
                .maxBackoff(maxBackoff)
                .jitter(jitter)
                .maxRestarts(maxRestarts)
                .restartWindow(restartWindow);
    }

    /**
     * Builds {@link SupervisionOptions}; not thread-safe. Each setter refuses an invalid value at once with
     * {@link InvalidOptionException} naming the field; {@link #build()} checks that {@code maxBackoff} is at least
     * {@code initialBackoff}. (Set through {@code RuntimeOptions}, the same mistakes are its {@code ConfigException},
     * with the field's path there.)
     */
    public static final class Builder {
        private Duration initialBackoff = Duration.ofMillis(500);
        private double multiplier = 2.0;
        private Duration maxBackoff = Duration.ofSeconds(30);
        private double jitter = 0.2;
        private int maxRestarts = 5;
        private Duration restartWindow = Duration.ofSeconds(60);

        private Builder() {
        }

        /** The delay before the first restart in a window (default 500 ms). */
        public Builder initialBackoff(Duration initialBackoff) {
            this.initialBackoff = OptionChecks.nonNegative(initialBackoff, "initialBackoff");
            return this;
        }

        /** The growth of the delay per restart already in the window (default 2.0). */
        public Builder multiplier(double multiplier) {
            this.multiplier = checkMultiplier(multiplier);
            return this;
        }

        /** The cap on the delay (default 30 s). */
        public Builder maxBackoff(Duration maxBackoff) {
            this.maxBackoff = OptionChecks.nonNegative(maxBackoff, "maxBackoff");
            return this;
        }

        /** The random spread of a delay, as a fraction both ways (default 0.2). */
        public Builder jitter(double jitter) {
            this.jitter = checkJitter(jitter);
            return this;
        }

        /** The most restarts in one window (default 5). */
        public Builder maxRestarts(int maxRestarts) {
            this.maxRestarts = OptionChecks.nonNegative(maxRestarts, "maxRestarts");
            return this;
        }

        /** The sliding window of the restart intensity (default 60 s). */
        public Builder restartWindow(Duration restartWindow) {
            this.restartWindow = OptionChecks.positive(restartWindow, "restartWindow");
            return this;
        }

        /** The options; throws {@link InvalidOptionException} when {@code maxBackoff} is below {@code initialBackoff}. */
        public SupervisionOptions build() {
            return new SupervisionOptions(initialBackoff, multiplier, maxBackoff, jitter, maxRestarts, restartWindow);
        }
    }
}
