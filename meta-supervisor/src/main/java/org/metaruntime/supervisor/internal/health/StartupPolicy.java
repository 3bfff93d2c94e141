package org.metaruntime.supervisor.internal.health;

import java.time.Duration;
import java.util.Objects;
import org.metaruntime.supervisor.RestartPolicy;

/**
 * How the startup procedure retries and restarts one module.
 *
 * <p>Budget 0 means no retry: at most {@code budget + 1} spawns. {@code restartBackoff} is the wait between
 * two attempts; zero (the default) means the next attempt starts at once.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * StartupPolicy policy = new StartupPolicy(RestartPolicy.ON_FAILURE, 2, 1, Duration.ofMillis(250));
 * StartupPolicy defaults = StartupPolicy.of(RestartPolicy.ON_FAILURE); // budgets 1 and 1, no backoff
 * }</pre>
 *
 * @param policy               the module's restart policy
 * @param onFailureRetryBudget retries after failed attempts under {@code ON_FAILURE} (default 1, {@code >= 0})
 * @param alwaysRestartBudget  restarts after attempts of any outcome under {@code ALWAYS} (default 1, {@code >= 0})
 * @param restartBackoff       the wait between attempts (default 0, not negative)
 */
public record StartupPolicy(RestartPolicy policy, int onFailureRetryBudget, int alwaysRestartBudget,
                            Duration restartBackoff) {

    /** The default on-failure retry budget. */
    public static final int DEFAULT_ON_FAILURE_RETRY_BUDGET = 1;
    /** The default always-restart budget. */
    public static final int DEFAULT_ALWAYS_RESTART_BUDGET = 1;

    public StartupPolicy {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(restartBackoff, "restartBackoff");
        if (onFailureRetryBudget < 0) {
            throw new IllegalArgumentException("onFailureRetryBudget must be >= 0: " + onFailureRetryBudget);
        }
        if (alwaysRestartBudget < 0) {
            throw new IllegalArgumentException("alwaysRestartBudget must be >= 0: " + alwaysRestartBudget);
        }
        if (restartBackoff.isNegative()) {
            throw new IllegalArgumentException("restartBackoff must not be negative: " + restartBackoff);
        }
    }

    /** {@code policy} with the default budgets (1 and 1) and no backoff. */
    public static StartupPolicy of(RestartPolicy policy) {
        return new StartupPolicy(policy, DEFAULT_ON_FAILURE_RETRY_BUDGET, DEFAULT_ALWAYS_RESTART_BUDGET, Duration.ZERO);
    }

    /** Whether attempt {@code n} that failed is followed by another attempt. */
    public boolean retriesAfterFailure(int n) {
        return (policy == RestartPolicy.ON_FAILURE && n <= onFailureRetryBudget)
                || (policy == RestartPolicy.ALWAYS && n <= alwaysRestartBudget);
    }

    /** Whether attempt {@code n} that succeeded is stopped and followed by another attempt. */
    public boolean restartsAfterSuccess(int n) {
        return policy == RestartPolicy.ALWAYS && n <= alwaysRestartBudget;
    }
}
