package org.metaruntime.core;

import java.time.Duration;
import java.util.Objects;
import org.metaruntime.core.internal.Checks;
import org.metaruntime.supervisor.RestartPolicy;

/**
 * The options of a {@link ModuleConfig.Builder} as they are set: each setter checks its value, naming the field
 * {@code modules[<id>].<option>}.
 *
 * <p>Not thread-safe.
 */
final class ModuleOptionsDraft {

    private final String id;
    private RestartPolicy restartPolicy = RestartPolicy.ON_FAILURE;
    private StartMode startMode = StartMode.EAGER;
    private Duration startupTimeout;
    private Duration idleTimeout;
    private Duration callTimeout;
    private Integer maxInFlightCalls;
    private Duration shutdownGrace;
    private Duration shutdownTimeout;
    private Duration healthCheck;

    /** The defaults of module {@code id}. */
    ModuleOptionsDraft(String id) {
        this.id = id;
    }

    /** A draft holding {@code options}. */
    ModuleOptionsDraft(String id, ModuleOptions options) {
        this(id);
        restartPolicy = options.restartPolicy();
        startMode = options.startMode();
        startupTimeout = options.startupTimeout();
        idleTimeout = options.idleTimeout();
        callTimeout = options.callTimeout();
        maxInFlightCalls = options.maxInFlightCalls();
        shutdownGrace = options.shutdownGrace();
        shutdownTimeout = options.shutdownTimeout();
        healthCheck = options.healthCheck();
    }

    void restartPolicy(RestartPolicy policy) {
        restartPolicy = Objects.requireNonNull(policy, "restartPolicy");
    }

    void startMode(StartMode mode) {
        startMode = Objects.requireNonNull(mode, "startMode");
    }

    void startupTimeout(Duration timeout) {
        startupTimeout = Checks.positive(timeout, field("startupTimeout"));
    }

    void idleTimeout(Duration timeout) {
        idleTimeout = Checks.positive(timeout, field("idleTimeout"));
    }

    void callTimeout(Duration timeout) {
        callTimeout = Checks.positive(timeout, field("callTimeout"));
    }

    void maxInFlightCalls(int max) {
        maxInFlightCalls = Checks.atLeast(max, 1, field("maxInFlightCalls"));
    }

    /** Sets the grace of each stop step and clears a shutdown timeout. */
    void shutdownGrace(Duration grace) {
        shutdownGrace = Checks.nonNegative(grace, field("shutdownGrace"));
        shutdownTimeout = null;
    }

    /** Sets the bound of the stop ladder and clears a shutdown grace. */
    void shutdownTimeout(Duration timeout) {
        shutdownTimeout = Checks.positive(timeout, field("shutdownTimeout"));
        shutdownGrace = null;
    }

    void healthCheck(Duration interval) {
        healthCheck = Checks.nonNegative(interval, field("healthCheck"));
    }

    /**
     * The options.
     *
     * @throws ConfigException when an idle timeout is set on an eager module
     */
    ModuleOptions build() {
        ModuleConfigValidator.idleTimeout(id, idleTimeout, startMode);
        return new ModuleOptions(restartPolicy, startMode, startupTimeout, idleTimeout, callTimeout,
                maxInFlightCalls, shutdownGrace, shutdownTimeout, healthCheck);
    }

    private String field(String option) {
        return ModuleConfigValidator.field(id, option);
    }
}
