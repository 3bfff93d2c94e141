package org.metaruntime.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.metaruntime.core.internal.Checks;

/**
 * How a {@link UnifiedRuntime} starts, supervises, calls and stops its modules.
 *
 * <pre>{@code
 * RuntimeOptions options = RuntimeOptions.builder()
 *         .onFailureRetryBudget(2)
 *         .restartBackoff(Duration.ofMillis(200))
 *         .inheritEnv(false).passThroughEnv(Set.of("PATH", "HOME"))
 *         .build();
 * }</pre>
 *
 * <p>Defaults (see each getter): the seed's startup budgets (1 / 1, backoff 0), startup timeout 30 s, core
 * ids {@code router}, {@code delivery}, {@code memory}, event retention 4,096 with drop batch 1,024. The
 * options marked [beyond] go beyond the seed.
 *
 * <p>Immutable and thread-safe.
 */
public final class RuntimeOptions {

    private static final RuntimeOptions DEFAULTS = builder().build();

    private final int onFailureRetryBudget;
    private final int alwaysRestartBudget;
    private final Duration restartBackoff;
    private final Duration startupTimeout;
    private final Duration callTimeout;
    private final Set<String> coreModuleIds;
    private final int eventRetention;
    private final int eventDropBatch;
    private final boolean inheritEnv;
    private final Set<String> passThroughEnv;
    private final int startupParallelism;
    private final int maxRestarts;
    private final Duration restartWindow;
    private final Duration supervisionBackoff;
    private final Duration supervisionBackoffMax;
    private final double supervisionJitter;
    private final Duration stopStdinGrace;
    private final Duration stopTermGrace;
    private final Duration stopKillWait;
    private final int maxInFlightCalls;
    private final int maxLineBytes;
    private final int stderrTailBytes;
    private final Duration eventLineExitGrace;
    private final boolean shutdownHook;

    private RuntimeOptions(Builder b) {
        onFailureRetryBudget = b.onFailureRetryBudget;
        alwaysRestartBudget = b.alwaysRestartBudget;
        restartBackoff = b.restartBackoff;
        startupTimeout = b.startupTimeout;
        callTimeout = b.callTimeout;
        coreModuleIds = Set.copyOf(b.coreModuleIds);
        eventRetention = b.eventRetention;
        eventDropBatch = b.eventDropBatch;
        inheritEnv = b.inheritEnv;
        passThroughEnv = Set.copyOf(b.passThroughEnv);
        startupParallelism = b.startupParallelism;
        maxRestarts = b.maxRestarts;
        restartWindow = b.restartWindow;
        supervisionBackoff = b.supervisionBackoff;
        supervisionBackoffMax = b.supervisionBackoffMax;
        supervisionJitter = b.supervisionJitter;
        stopStdinGrace = b.stopStdinGrace;
        stopTermGrace = b.stopTermGrace;
        stopKillWait = b.stopKillWait;
        maxInFlightCalls = b.maxInFlightCalls;
        maxLineBytes = b.maxLineBytes;
        stderrTailBytes = b.stderrTailBytes;
        eventLineExitGrace = b.eventLineExitGrace;
        shutdownHook = b.shutdownHook;
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default options. */
    public static RuntimeOptions defaults() {
        return DEFAULTS;
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.onFailureRetryBudget = onFailureRetryBudget;
        b.alwaysRestartBudget = alwaysRestartBudget;
        b.restartBackoff = restartBackoff;
        b.startupTimeout = startupTimeout;
        b.callTimeout = callTimeout;
        b.coreModuleIds = coreModuleIds;
        b.eventRetention = eventRetention;
        b.eventDropBatch = eventDropBatch;
        b.inheritEnv = inheritEnv;
        b.passThroughEnv = passThroughEnv;
        b.startupParallelism = startupParallelism;
        b.maxRestarts = maxRestarts;
        b.restartWindow = restartWindow;
        b.supervisionBackoff = supervisionBackoff;
        b.supervisionBackoffMax = supervisionBackoffMax;
        b.supervisionJitter = supervisionJitter;
        b.stopStdinGrace = stopStdinGrace;
        b.stopTermGrace = stopTermGrace;
        b.stopKillWait = stopKillWait;
        b.maxInFlightCalls = maxInFlightCalls;
        b.maxLineBytes = maxLineBytes;
        b.stderrTailBytes = stderrTailBytes;
        b.eventLineExitGrace = eventLineExitGrace;
        b.shutdownHook = shutdownHook;
        return b;
    }

    /** Retries after a failed start under {@code ON_FAILURE}. Default 1; 0 means no retry. */
    public int onFailureRetryBudget() {
        return onFailureRetryBudget;
    }

    /** Restarts under {@code ALWAYS} during startup. Default 1; 0 means no restart. */
    public int alwaysRestartBudget() {
        return alwaysRestartBudget;
    }

    /** The wait between startup attempts. Default 0 (restart at once). */
    public Duration restartBackoff() {
        return restartBackoff;
    }

    /** The bound of one startup attempt (first event, or the MCP probe). Default 30 s. */
    public Duration startupTimeout() {
        return startupTimeout;
    }

    /** The timeout of a call routed without an explicit timeout. Default 30 s. */
    public Duration callTimeout() {
        return callTimeout;
    }

    /** The module ids that require the MCP boundary. Default {@code router}, {@code delivery}, {@code memory}. */
    public Set<String> coreModuleIds() {
        return coreModuleIds;
    }

    /** Whether {@code moduleId} is a core module. */
    public boolean isCore(String moduleId) {
        return coreModuleIds.contains(Objects.requireNonNull(moduleId, "moduleId"));
    }

    /** The newest merged events always kept. Default 4,096. */
    public int eventRetention() {
        return eventRetention;
    }

    /** How many extra events accumulate before the oldest are dropped down to the retention. Default 1,024. */
    public int eventDropBatch() {
        return eventDropBatch;
    }

    /** [beyond] Whether a module starts from the host's environment. Default {@code true}. */
    public boolean inheritEnv() {
        return inheritEnv;
    }

    /** [beyond] The host variables passed to modules when {@link #inheritEnv()} is false. Default none. */
    public Set<String> passThroughEnv() {
        return passThroughEnv;
    }

    /** [beyond] How many modules start at once. Default 4. */
    public int startupParallelism() {
        return startupParallelism;
    }

    /** [beyond] The most restarts after startup within {@link #restartWindow()}. Default 5; 0 stops at the first failure. */
    public int maxRestarts() {
        return maxRestarts;
    }

    /** [beyond] The sliding window of {@link #maxRestarts()}. Default 60 s. */
    public Duration restartWindow() {
        return restartWindow;
    }

    /** [beyond] The first backoff of a restart after startup, doubled per consecutive restart. Default 500 ms. */
    public Duration supervisionBackoff() {
        return supervisionBackoff;
    }

    /** [beyond] The cap of the restart backoff after startup. Default 30 s. */
    public Duration supervisionBackoffMax() {
        return supervisionBackoffMax;
    }

    /** [beyond] The random fraction added to or taken from each restart backoff, in [0, 1]. Default 0.2. */
    public double supervisionJitter() {
        return supervisionJitter;
    }

    /** The wait after closing a child's stdin before SIGTERM. Default 2 s; zero goes straight on. */
    public Duration stopStdinGrace() {
        return stopStdinGrace;
    }

    /** The wait after SIGTERM before SIGKILL. Default 2 s. */
    public Duration stopTermGrace() {
        return stopTermGrace;
    }

    /** The bounded wait after SIGKILL. Default 2 s. */
    public Duration stopKillWait() {
        return stopKillWait;
    }

    /** [beyond] The most calls in flight at once on one persistent MCP connection. Default 64. */
    public int maxInFlightCalls() {
        return maxInFlightCalls;
    }

    /** The longest stdout line accepted from a child. Default 16 MiB. */
    public int maxLineBytes() {
        return maxLineBytes;
    }

    /** How many bytes of a child's stderr are kept. Default 64 KiB. */
    public int stderrTailBytes() {
        return stderrTailBytes;
    }

    /**
     * How long a routed event-line call waits for its process to exit after the first line, before stopping it.
     * Empty (the default): {@code EventLineRunner.DEFAULT_EXIT_GRACE} (500 ms).
     */
    public Optional<Duration> eventLineExitGrace() {
        return Optional.ofNullable(eventLineExitGrace);
    }

    /** Whether the runtime registers a JVM shutdown hook that stops its children. Default {@code true}. */
    public boolean shutdownHook() {
        return shutdownHook;
    }

    /** The startup timeout of {@code module}: its own, else {@link #startupTimeout()}. */
    public Duration startupTimeoutFor(ModuleConfig module) {
        return module.startupTimeout().orElse(startupTimeout);
    }

    /** The default call timeout of {@code module}: its own, else {@link #callTimeout()}. */
    public Duration callTimeoutFor(ModuleConfig module) {
        return module.callTimeout().orElse(callTimeout);
    }

    /** The in-flight bound of {@code module}: its own, else {@link #maxInFlightCalls()}. */
    public int maxInFlightCallsFor(ModuleConfig module) {
        return module.maxInFlightCalls().orElse(maxInFlightCalls);
    }

    @Override
    public String toString() {
        return "RuntimeOptions[onFailureRetryBudget=" + onFailureRetryBudget + ", alwaysRestartBudget="
                + alwaysRestartBudget + ", restartBackoff=" + restartBackoff + ", startupTimeout=" + startupTimeout
                + ", coreModuleIds=" + coreModuleIds + ", eventRetention=" + eventRetention + ", eventDropBatch="
                + eventDropBatch + ", inheritEnv=" + inheritEnv + ", startupParallelism=" + startupParallelism
                + ", maxRestarts=" + maxRestarts + ", restartWindow=" + restartWindow + "]";
    }

    /** Builds {@link RuntimeOptions}; each setter validates and throws {@link ConfigException} naming the field. Not thread-safe. */
    public static final class Builder {
        private int onFailureRetryBudget = 1;
        private int alwaysRestartBudget = 1;
        private Duration restartBackoff = Duration.ZERO;
        private Duration startupTimeout = Duration.ofSeconds(30);
        private Duration callTimeout = Duration.ofSeconds(30);
        private Set<String> coreModuleIds = Set.of("router", "delivery", "memory");
        private int eventRetention = 4096;
        private int eventDropBatch = 1024;
        private boolean inheritEnv = true;
        private Set<String> passThroughEnv = Set.of();
        private int startupParallelism = 4;
        private int maxRestarts = 5;
        private Duration restartWindow = Duration.ofSeconds(60);
        private Duration supervisionBackoff = Duration.ofMillis(500);
        private Duration supervisionBackoffMax = Duration.ofSeconds(30);
        private double supervisionJitter = 0.2;
        private Duration stopStdinGrace = Duration.ofSeconds(2);
        private Duration stopTermGrace = Duration.ofSeconds(2);
        private Duration stopKillWait = Duration.ofSeconds(2);
        private int maxInFlightCalls = 64;
        private int maxLineBytes = 16 * 1024 * 1024;
        private int stderrTailBytes = 64 * 1024;
        private Duration eventLineExitGrace;
        private boolean shutdownHook = true;

        private Builder() {
        }

        /** Sets {@link RuntimeOptions#onFailureRetryBudget()}; validated at once. */
        public Builder onFailureRetryBudget(int budget) {
            this.onFailureRetryBudget = Checks.atLeast(budget, 0, "onFailureRetryBudget");
            return this;
        }

        /** Sets {@link RuntimeOptions#alwaysRestartBudget()}; validated at once. */
        public Builder alwaysRestartBudget(int budget) {
            this.alwaysRestartBudget = Checks.atLeast(budget, 0, "alwaysRestartBudget");
            return this;
        }

        /** Sets {@link RuntimeOptions#restartBackoff()}; validated at once. */
        public Builder restartBackoff(Duration backoff) {
            this.restartBackoff = Checks.nonNegative(backoff, "restartBackoff");
            return this;
        }

        /** Sets {@link RuntimeOptions#startupTimeout()}; validated at once. */
        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = Checks.positive(timeout, "startupTimeout");
            return this;
        }

        /** Sets {@link RuntimeOptions#callTimeout()}; validated at once. */
        public Builder callTimeout(Duration timeout) {
            this.callTimeout = Checks.positive(timeout, "callTimeout");
            return this;
        }

        /** Sets {@link RuntimeOptions#coreModuleIds()}; validated at once. */
        public Builder coreModuleIds(Set<String> ids) {
            this.coreModuleIds = Set.copyOf(Objects.requireNonNull(ids, "coreModuleIds"));
            return this;
        }

        /** Sets {@link RuntimeOptions#eventRetention()}; validated at once. */
        public Builder eventRetention(int retention) {
            this.eventRetention = Checks.atLeast(retention, 1, "eventRetention");
            return this;
        }

        /** Sets {@link RuntimeOptions#eventDropBatch()}; validated at once. */
        public Builder eventDropBatch(int batch) {
            this.eventDropBatch = Checks.atLeast(batch, 1, "eventDropBatch");
            return this;
        }

        /** Sets {@link RuntimeOptions#inheritEnv()}; validated at once. */
        public Builder inheritEnv(boolean inherit) {
            this.inheritEnv = inherit;
            return this;
        }

        /** Sets {@link RuntimeOptions#passThroughEnv()}; validated at once. */
        public Builder passThroughEnv(Set<String> names) {
            this.passThroughEnv = Set.copyOf(Objects.requireNonNull(names, "passThroughEnv"));
            return this;
        }

        /** Sets {@link RuntimeOptions#startupParallelism()}; validated at once. */
        public Builder startupParallelism(int parallelism) {
            this.startupParallelism = Checks.atLeast(parallelism, 1, "startupParallelism");
            return this;
        }

        /** Sets {@link RuntimeOptions#maxRestarts()}; validated at once. */
        public Builder maxRestarts(int max) {
            this.maxRestarts = Checks.atLeast(max, 0, "maxRestarts");
            return this;
        }

        /** Sets {@link RuntimeOptions#restartWindow()}; validated at once. */
        public Builder restartWindow(Duration window) {
            this.restartWindow = Checks.positive(window, "restartWindow");
            return this;
        }

        /** Sets {@link RuntimeOptions#supervisionBackoff()}; validated at once. */
        public Builder supervisionBackoff(Duration initial) {
            this.supervisionBackoff = Checks.nonNegative(initial, "supervisionBackoff");
            return this;
        }

        /** Sets {@link RuntimeOptions#supervisionBackoffMax()}; validated at once. */
        public Builder supervisionBackoffMax(Duration max) {
            this.supervisionBackoffMax = Checks.nonNegative(max, "supervisionBackoffMax");
            return this;
        }

        /** Sets {@link RuntimeOptions#supervisionJitter()}; validated at once. */
        public Builder supervisionJitter(double jitter) {
            if (!(jitter >= 0.0 && jitter <= 1.0)) {
                throw new ConfigException("supervisionJitter", "the jitter must be in [0, 1], got " + jitter);
            }
            this.supervisionJitter = jitter;
            return this;
        }

        /** Sets {@link RuntimeOptions#stopStdinGrace()}; validated at once. */
        public Builder stopStdinGrace(Duration grace) {
            this.stopStdinGrace = Checks.nonNegative(grace, "stopStdinGrace");
            return this;
        }

        /** Sets {@link RuntimeOptions#stopTermGrace()}; validated at once. */
        public Builder stopTermGrace(Duration grace) {
            this.stopTermGrace = Checks.nonNegative(grace, "stopTermGrace");
            return this;
        }

        /** Sets {@link RuntimeOptions#stopKillWait()}; validated at once. */
        public Builder stopKillWait(Duration wait) {
            this.stopKillWait = Checks.nonNegative(wait, "stopKillWait");
            return this;
        }

        /** Sets {@link RuntimeOptions#maxInFlightCalls()}; validated at once. */
        public Builder maxInFlightCalls(int max) {
            this.maxInFlightCalls = Checks.atLeast(max, 1, "maxInFlightCalls");
            return this;
        }

        /** Sets {@link RuntimeOptions#maxLineBytes()}; validated at once. */
        public Builder maxLineBytes(int max) {
            this.maxLineBytes = Checks.atLeast(max, 1, "maxLineBytes");
            return this;
        }

        /** Sets {@link RuntimeOptions#stderrTailBytes()}; validated at once. */
        public Builder stderrTailBytes(int bytes) {
            this.stderrTailBytes = Checks.atLeast(bytes, 0, "stderrTailBytes");
            return this;
        }

        /** Sets {@link RuntimeOptions#eventLineExitGrace()}; validated at once. */
        public Builder eventLineExitGrace(Duration grace) {
            this.eventLineExitGrace = Checks.nonNegative(grace, "eventLineExitGrace");
            return this;
        }

        /** Sets {@link RuntimeOptions#shutdownHook()}; validated at once. */
        public Builder shutdownHook(boolean register) {
            this.shutdownHook = register;
            return this;
        }

        /**
         * The options.
         *
         * @throws ConfigException when {@code supervisionBackoffMax} is below {@code supervisionBackoff}
         */
        public RuntimeOptions build() {
            if (supervisionBackoffMax.compareTo(supervisionBackoff) < 0) {
                throw new ConfigException("supervisionBackoffMax",
                        "the backoff cap " + supervisionBackoffMax + " is below the first backoff " + supervisionBackoff);
            }
            return new RuntimeOptions(this);
        }
    }
}
