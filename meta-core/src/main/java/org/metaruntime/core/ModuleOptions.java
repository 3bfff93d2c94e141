package org.metaruntime.core;

import java.time.Duration;
import java.util.Optional;
import org.metaruntime.supervisor.RestartPolicy;

/**
 * The per-module options of a {@link ModuleConfig}, each validated as it is set on a {@link ModuleOptionsDraft};
 * {@code null}: the runtime's applies. {@code healthCheck} zero means off; at most one of {@code shutdownGrace} and
 * {@code shutdownTimeout} is set.
 *
 * <p>Immutable and thread-safe.
 */
record ModuleOptions(RestartPolicy restartPolicy, StartMode startMode, Duration startupTimeout, Duration idleTimeout,
                     Duration callTimeout, Integer maxInFlightCalls, Duration shutdownGrace, Duration shutdownTimeout,
                     Duration healthCheck) {

    /**
     * The interval of health-check pings: the one set, else {@link ModuleConfig#DEFAULT_REMOTE_HEALTH_CHECK} for a
     * remote module; empty when off.
     */
    Optional<Duration> healthCheckInterval(boolean remote) {
        if (healthCheck != null) {
            return healthCheck.isZero() ? Optional.empty() : Optional.of(healthCheck);
        }
        return remote ? Optional.of(ModuleConfig.DEFAULT_REMOTE_HEALTH_CHECK) : Optional.empty();
    }
}
