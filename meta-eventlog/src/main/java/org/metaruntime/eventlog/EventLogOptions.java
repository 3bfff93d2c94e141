package org.metaruntime.eventlog;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * How an event log behaves: who it writes as, its queue and batches, retention, how often a tail looks for
 * rows other runtimes wrote, and how long {@code close()} may take. Immutable and thread-safe.
 *
 * <pre>{@code
 * EventLogOptions options = EventLogOptions.builder()
 *         .instanceId("gateway-a")
 *         .retentionMaxAge(Duration.ofDays(7))
 *         .retentionMaxRows(10_000_000)
 *         .build();
 * EventLog log = EventLogs.jdbc(dataSource, options);
 * }</pre>
 *
 * @param instanceId        the runtime instance stored in every row (default: {@code <pid>@<host>-<random>})
 * @param queueCapacity     envelopes waiting for the writer at most (default 65,536); beyond it appends are
 *                          dropped and counted in a gap row
 * @param maxBatch          rows committed in one transaction at most (default 16,384)
 * @param retentionMaxAge   rows logged longer ago than this are deleted; {@link Duration#ZERO} (the default)
 *                          keeps them whatever their age
 * @param retentionMaxRows  only the newest this many envelope rows are kept; 0 (the default) keeps all
 * @param retentionInterval how often the writer applies retention (default 1 minute, at least 1 ms)
 * @param tailPollInterval  how often an idle tail reads the log for rows written by other runtimes (default
 *                          250 ms; rows this log commits wake it at once)
 * @param closeTimeout      how long {@code close()} waits for the queue to be committed (default 30 s)
 * @param clock             the clock of {@code logged_ms} and retention by age (default the system clock)
 */
public record EventLogOptions(String instanceId, int queueCapacity, int maxBatch, Duration retentionMaxAge,
                              long retentionMaxRows, Duration retentionInterval, Duration tailPollInterval,
                              Duration closeTimeout, Clock clock) {

    /**
     * Validates the options.
     *
     * @throws InvalidOptionException naming the refused field ({@code queueCapacity}, {@code retentionMaxAge}, ...)
     */
    public EventLogOptions {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(retentionMaxAge, "retentionMaxAge");
        Objects.requireNonNull(retentionInterval, "retentionInterval");
        Objects.requireNonNull(tailPollInterval, "tailPollInterval");
        Objects.requireNonNull(closeTimeout, "closeTimeout");
        Objects.requireNonNull(clock, "clock");
        if (instanceId.isBlank()) {
            throw new InvalidOptionException("instanceId", "must not be blank");
        }
        OptionChecks.atLeast(queueCapacity, 1, "queueCapacity");
        OptionChecks.atLeast(maxBatch, 1, "maxBatch");
        OptionChecks.nonNegative(retentionMaxAge, "retentionMaxAge");
        OptionChecks.nonNegative(retentionMaxRows, "retentionMaxRows");
        atLeastOneMs("retentionInterval", retentionInterval);
        atLeastOneMs("tailPollInterval", tailPollInterval);
        OptionChecks.nonNegative(closeTimeout, "closeTimeout");
    }

    private static void atLeastOneMs(String field, Duration value) {
        if (value.toMillis() < 1) {
            throw new InvalidOptionException(field, "must be at least 1 ms, got " + value);
        }
    }

    /** The defaults. */
    public static EventLogOptions defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.instanceId = instanceId;
        b.queueCapacity = queueCapacity;
        b.maxBatch = maxBatch;
        b.retentionMaxAge = retentionMaxAge;
        b.retentionMaxRows = retentionMaxRows;
        b.retentionInterval = retentionInterval;
        b.tailPollInterval = tailPollInterval;
        b.closeTimeout = closeTimeout;
        b.clock = clock;
        return b;
    }

    /** The default instance id: {@code <pid>@<host>-<8 random hex digits>}. */
    public static String defaultInstanceId() {
        return ManagementFactory.getRuntimeMXBean().getName() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Builds {@link EventLogOptions}; not thread-safe. */
    public static final class Builder {
        private String instanceId;
        private int queueCapacity = 65_536;
        private int maxBatch = 16_384;
        private Duration retentionMaxAge = Duration.ZERO;
        private long retentionMaxRows;
        private Duration retentionInterval = Duration.ofMinutes(1);
        private Duration tailPollInterval = Duration.ofMillis(250);
        private Duration closeTimeout = Duration.ofSeconds(30);
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /** See {@link EventLogOptions#instanceId()}. */
        public Builder instanceId(String instanceId) {
            this.instanceId = instanceId;
            return this;
        }

        /** See {@link EventLogOptions#queueCapacity()}. */
        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        /** See {@link EventLogOptions#maxBatch()}. */
        public Builder maxBatch(int maxBatch) {
            this.maxBatch = maxBatch;
            return this;
        }

        /** See {@link EventLogOptions#retentionMaxAge()}. */
        public Builder retentionMaxAge(Duration retentionMaxAge) {
            this.retentionMaxAge = retentionMaxAge;
            return this;
        }

        /** See {@link EventLogOptions#retentionMaxRows()}. */
        public Builder retentionMaxRows(long retentionMaxRows) {
            this.retentionMaxRows = retentionMaxRows;
            return this;
        }

        /** See {@link EventLogOptions#retentionInterval()}. */
        public Builder retentionInterval(Duration retentionInterval) {
            this.retentionInterval = retentionInterval;
            return this;
        }

        /** See {@link EventLogOptions#tailPollInterval()}. */
        public Builder tailPollInterval(Duration tailPollInterval) {
            this.tailPollInterval = tailPollInterval;
            return this;
        }

        /** See {@link EventLogOptions#closeTimeout()}. */
        public Builder closeTimeout(Duration closeTimeout) {
            this.closeTimeout = closeTimeout;
            return this;
        }

        /** See {@link EventLogOptions#clock()}. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** The options. */
        public EventLogOptions build() {
            return new EventLogOptions(instanceId == null ? defaultInstanceId() : instanceId, queueCapacity,
                    maxBatch, retentionMaxAge, retentionMaxRows, retentionInterval, tailPollInterval,
                    closeTimeout, clock);
        }
    }
}
