package org.metaruntime.core;

import java.time.Duration;
import org.metaruntime.core.internal.Checks;

/**
 * How the runtime starts a module: the retry budgets of the startup procedure, the wait between its attempts, the
 * bound of one attempt and how many modules start at once.
 *
 * <pre>{@code
 * RuntimeOptions options = RuntimeOptions.builder()
 *         .startup(StartupOptions.builder().onFailureRetryBudget(2).timeout(Duration.ofSeconds(10)).build())
 *         .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param onFailureRetryBudget retries after a failed start under {@code ON_FAILURE}; default 1, 0 means no retry
 * @param alwaysRestartBudget  restarts under {@code ALWAYS} during startup; default 1, 0 means no restart
 * @param restartBackoff       the wait between startup attempts; default 0 (at once)
 * @param timeout              the bound of one attempt (the first event, or the MCP probe); default 30 s
 * @param parallelism          how many modules start at once; default 4
 */
public record StartupOptions(int onFailureRetryBudget, int alwaysRestartBudget, Duration restartBackoff,
                             Duration timeout, int parallelism) {

    private static final StartupOptions DEFAULTS = new StartupOptions(1, 1, Duration.ZERO, Duration.ofSeconds(30), 4);

    /** Validates every component; throws {@link ConfigException} naming the field. */
    public StartupOptions {
        Checks.nonNegative(onFailureRetryBudget, "onFailureRetryBudget");
        Checks.nonNegative(alwaysRestartBudget, "alwaysRestartBudget");
        Checks.nonNegative(restartBackoff, "restartBackoff");
        Checks.positive(timeout, "startupTimeout");
        Checks.atLeast(parallelism, 1, "startupParallelism");
    }

    /** Budgets 1 / 1, backoff 0, timeout 30 s, parallelism 4. */
    public static StartupOptions defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return DEFAULTS.toBuilder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.onFailureRetryBudget = onFailureRetryBudget;
        b.alwaysRestartBudget = alwaysRestartBudget;
        b.restartBackoff = restartBackoff;
        b.timeout = timeout;
        b.parallelism = parallelism;
        return b;
    }

    /** Builds {@link StartupOptions}; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private int onFailureRetryBudget;
        private int alwaysRestartBudget;
        private Duration restartBackoff;
        private Duration timeout;
        private int parallelism;

        private Builder() {
        }

        /** Sets {@link StartupOptions#onFailureRetryBudget()}. */
        public Builder onFailureRetryBudget(int budget) {
            this.onFailureRetryBudget = budget;
            return this;
        }

        /** Sets {@link StartupOptions#alwaysRestartBudget()}. */
        public Builder alwaysRestartBudget(int budget) {
            this.alwaysRestartBudget = budget;
            return this;
        }

        /** Sets {@link StartupOptions#restartBackoff()}. */
        public Builder restartBackoff(Duration backoff) {
            this.restartBackoff = backoff;
            return this;
        }

        /** Sets {@link StartupOptions#timeout()}. */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** Sets {@link StartupOptions#parallelism()}. */
        public Builder parallelism(int parallelism) {
            this.parallelism = parallelism;
            return this;
        }

        /**
         * The options.
         *
         * @throws ConfigException naming the first invalid field
         */
        public StartupOptions build() {
            return new StartupOptions(onFailureRetryBudget, alwaysRestartBudget, restartBackoff, timeout, parallelism);
        }
    }
}
