package org.metaruntime.core;

import org.metaruntime.core.internal.Checks;

/**
 * The runtime's merged event buffer: how many of the newest events are always kept, and how many more may
 * accumulate before the oldest are dropped down to the retention.
 *
 * <p>Immutable and thread-safe.
 *
 * @param retention the newest merged events always kept; default 4,096
 * @param dropBatch the extra events that accumulate before a drop; default 1,024
 */
public record EventOptions(int retention, int dropBatch) {

    private static final EventOptions DEFAULTS = new EventOptions(4096, 1024);

    /** Validates both components; throws {@link ConfigException} naming the field. */
    public EventOptions {
        Checks.atLeast(retention, 1, "eventRetention");
        Checks.atLeast(dropBatch, 1, "eventDropBatch");
    }

    /** Retention 4,096, drop batch 1,024. */
    public static EventOptions defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return DEFAULTS.toBuilder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder().retention(retention).dropBatch(dropBatch);
    }

    /** Builds {@link EventOptions}; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private int retention;
        private int dropBatch;

        private Builder() {
        }

        /** Sets {@link EventOptions#retention()}. */
        public Builder retention(int retention) {
            this.retention = retention;
            return this;
        }

        /** Sets {@link EventOptions#dropBatch()}. */
        public Builder dropBatch(int dropBatch) {
            this.dropBatch = dropBatch;
            return this;
        }

        /**
         * The options.
         *
         * @throws ConfigException naming the first invalid field
         */
        public EventOptions build() {
            return new EventOptions(retention, dropBatch);
        }
    }
}
