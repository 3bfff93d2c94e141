package org.metaruntime.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.metaruntime.core.internal.CallOptionsMeta;
import org.metaruntime.supervisor.Deadline;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * How one call runs: its timeout, who hears its progress, and the {@code _meta} entries an MCP call carries.
 *
 * <pre>{@code
 * CallOptions options = CallOptions.builder()
 *         .timeout(Duration.ofMinutes(2))
 *         .onProgress(update -> log.info("{} of {}: {}", update.progress(), update.total(), update.message()))
 *         .resetTimeoutOnProgress(true)       // a call that keeps reporting progress is not timed out
 *         .build();
 * }</pre>
 *
 * <p>A timeout longer than {@link #MAX_TIMEOUT} is treated as {@link #MAX_TIMEOUT}; a timeout is rounded up to a
 * whole millisecond. Immutable and thread-safe.
 */
public final class CallOptions {

    /**
     * The longest timeout a call can have, {@link Deadline#MAX_TIMEOUT} (100 years) as for every timeout of the
     * library; a longer one is shortened to it.
     */
    public static final Duration MAX_TIMEOUT = Deadline.MAX_TIMEOUT;

    static {
        CallOptionsMeta.grant(options -> options.meta);
    }

    private static final CallOptions DEFAULTS = builder().build();

    private final Duration timeout;
    private final Consumer<ProgressUpdate> onProgress;
    private final boolean resetTimeoutOnProgress;
    private final ObjectNode meta;

    private CallOptions(Builder b) {
        this.timeout = b.timeout;
        this.onProgress = b.onProgress;
        this.resetTimeoutOnProgress = b.resetTimeoutOnProgress;
        this.meta = b.meta; // never changed: the builder took a copy, and meta() hands out copies
    }

    /** The module's call timeout, no progress listener. */
    public static CallOptions defaults() {
        return DEFAULTS;
    }

    /** Only a timeout. */
    public static CallOptions timeout(Duration timeout) {
        return builder().timeout(timeout).build();
    }

    /** A builder with no timeout (the module's), no progress listener and no {@code _meta}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.timeout = timeout;
        b.onProgress = onProgress;
        b.resetTimeoutOnProgress = resetTimeoutOnProgress;
        b.meta = meta == null ? null : meta.deepCopy();
        return b;
    }

    /** The call's timeout; empty means the module's call timeout. */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /** The listener of the call's progress, if any. */
    public Optional<Consumer<ProgressUpdate>> onProgress() {
        return Optional.ofNullable(onProgress);
    }

    /** Whether each progress update starts the timeout again. Default {@code false}. */
    public boolean resetTimeoutOnProgress() {
        return resetTimeoutOnProgress;
    }

    /**
     * The entries an MCP module's {@code tools/call} carries in its {@code _meta} (next to the progress token), a
     * copy; empty for none. Event-line calls ignore them.
     */
    public Optional<ObjectNode> meta() {
        return Optional.ofNullable(meta).map(ObjectNode::deepCopy);
    }

    /**
     * {@code timeout} as a call uses it: rounded up to a whole millisecond, at most {@link #MAX_TIMEOUT}.
     *
     * @throws InvalidOptionException (field {@code timeout}) when it is not positive
     */
    public static Duration effective(Duration timeout) {
        OptionChecks.positive(timeout, "timeout");
        if (timeout.compareTo(MAX_TIMEOUT) > 0) {
            return MAX_TIMEOUT;
        }
        Duration millis = Duration.ofMillis(timeout.toMillis());
        return millis.equals(timeout) ? timeout : millis.plusMillis(1);
    }

    @Override
    public String toString() {
        return "CallOptions[timeout=" + timeout + ", onProgress=" + (onProgress != null) + ", resetTimeoutOnProgress="
                + resetTimeoutOnProgress + ", meta=" + meta + "]";
    }

    /** Builds {@link CallOptions}. Not thread-safe. */
    public static final class Builder {
        private Duration timeout;
        private Consumer<ProgressUpdate> onProgress;
        private boolean resetTimeoutOnProgress;
        private ObjectNode meta;

        private Builder() {
        }

        /**
         * The call's timeout: it bounds the whole call.
         *
         * @throws InvalidOptionException (field {@code timeout}) when it is not positive
         */
        public Builder timeout(Duration timeout) {
            this.timeout = effective(timeout);
            return this;
        }

        /**
         * Receives the module's progress updates for this call only, in order, one at a time, before the response
         * completes. A listener that throws is logged and keeps receiving; it never fails the call. Keep it fast.
         */
        public Builder onProgress(Consumer<ProgressUpdate> listener) {
            this.onProgress = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** Whether each progress update starts the timeout again. Default {@code false}. */
        public Builder resetTimeoutOnProgress(boolean reset) {
            this.resetTimeoutOnProgress = reset;
            return this;
        }

        /**
         * Entries put into the {@code _meta} of an MCP module's {@code tools/call} (copied), for servers that read
         * request metadata; {@code progressToken} is the runtime's own and is not taken from here.
         */
        public Builder meta(ObjectNode meta) {
            this.meta = Objects.requireNonNull(meta, "meta").deepCopy();
            return this;
        }

        public CallOptions build() {
            return new CallOptions(this);
        }
    }
}
