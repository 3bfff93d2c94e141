package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.metaruntime.mcp.internal.CallMeta;
import org.metaruntime.supervisor.Deadline;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * How one {@code tools/call} runs: its timeout, a progress listener, and handlers for the requests the server
 * sends while it is in flight. Immutable and thread-safe; build with {@link #builder(Duration)}.
 *
 * <ul>
 *   <li><b>Timeout</b> (positive): bounds the whole call, the wait for an in-flight slot included. Progress
 *       never extends it unless {@link Builder#resetTimeoutOnProgress(boolean)} is set: then each progress
 *       update starts the timeout anew.</li>
 *   <li><b>Progress</b>: with a listener the request carries a {@code _meta.progressToken} unique to the call;
 *       every {@code notifications/progress} with that token reaches the listener, in order, on one thread at a
 *       time, before the call's futures complete. The listener runs on the module's stdout thread: it must be
 *       fast (hand slow work off). One that throws is logged and still receives the later updates.</li>
 *   <li><b>{@code _meta}</b>: entries put into the request's {@code _meta} (next to the progress token), for
 *       servers that read request metadata.</li>
 *   <li><b>Handlers</b> for {@code sampling/createMessage}, {@code elicitation/create} and {@code roots/list}:
 *       a request the server sends while this call is the only one in flight naming a handler for it goes to
 *       that handler; otherwise the connection's handler ({@link McpClientOptions}) answers, else JSON-RPC
 *       error -32601.</li>
 * </ul>
 *
 * <pre>{@code
 * McpCallOptions options = McpCallOptions.builder(Duration.ofMinutes(5))
 *         .onProgress(p -> bar.set(p.progress(), p.total()))
 *         .resetTimeoutOnProgress(true)
 *         .samplingHandler((module, params) -> llm.answerAsync(params))
 *         .build();
 * }</pre>
 */
public final class McpCallOptions {

    static {
        CallMeta.grant(new CallMeta.Access() {
            @Override
            public ObjectNode held(McpCallOptions options) {
                return options.meta;
            }

            @Override
            public void hold(Builder builder, ObjectNode meta) {
                builder.meta = Objects.requireNonNull(meta, "meta");
            }
        });
    }

    private final Duration timeout;
    private final Consumer<McpProgress> onProgress;
    private final boolean resetTimeoutOnProgress;
    private final McpClientRequestHandler samplingHandler;
    private final McpClientRequestHandler elicitationHandler;
    private final McpClientRequestHandler rootsHandler;
    private final ObjectNode meta;

    private McpCallOptions(Builder b) {
        this.timeout = b.timeout;
        this.onProgress = b.onProgress;
        this.resetTimeoutOnProgress = b.resetTimeoutOnProgress;
        this.samplingHandler = b.samplingHandler;
        this.elicitationHandler = b.elicitationHandler;
        this.rootsHandler = b.rootsHandler;
        this.meta = b.meta; // never changed: the builder took a copy, and meta() hands out copies
    }

    /** Options with {@code timeout} and nothing else. */
    public static McpCallOptions of(Duration timeout) {
        return builder(timeout).build();
    }

    /** A builder with {@code timeout} (positive). */
    public static Builder builder(Duration timeout) {
        return new Builder(timeout);
    }

    /** The call's timeout. */
    public Duration timeout() {
        return timeout;
    }

    /** The progress listener, if any. */
    public Optional<Consumer<McpProgress>> onProgress() {
        return Optional.ofNullable(onProgress);
    }

    /** Whether each progress update starts the timeout anew (default false). */
    public boolean resetTimeoutOnProgress() {
        return resetTimeoutOnProgress;
    }

    /** This call's handler for {@code sampling/createMessage}, if any. */
    public Optional<McpClientRequestHandler> samplingHandler() {
        return Optional.ofNullable(samplingHandler);
    }

    /** This call's handler for {@code elicitation/create}, if any. */
    public Optional<McpClientRequestHandler> elicitationHandler() {
        return Optional.ofNullable(elicitationHandler);
    }

    /** This call's handler for {@code roots/list}, if any. */
    public Optional<McpClientRequestHandler> rootsHandler() {
        return Optional.ofNullable(rootsHandler);
    }

    /** The entries put into the request's {@code _meta}, if any (a copy). */
    public Optional<ObjectNode> meta() {
        return Optional.ofNullable(meta == null ? null : meta.deepCopy());
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder(timeout);
        b.onProgress = onProgress;
        b.resetTimeoutOnProgress = resetTimeoutOnProgress;
        b.samplingHandler = samplingHandler;
        b.elicitationHandler = elicitationHandler;
        b.rootsHandler = rootsHandler;
        b.meta = meta;
        return b;
    }

    /** Builds {@link McpCallOptions}. Not thread-safe. */
    public static final class Builder {
        private Duration timeout;
        private Consumer<McpProgress> onProgress;
        private boolean resetTimeoutOnProgress;
        private McpClientRequestHandler samplingHandler;
        private McpClientRequestHandler elicitationHandler;
        private McpClientRequestHandler rootsHandler;
        private ObjectNode meta;

        private Builder(Duration timeout) {
            timeout(timeout);
        }

        /**
         * The call's timeout; must be positive; one over 100 years counts as 100 years.
         *
         * @throws InvalidOptionException at {@code timeout} when it is zero or negative
         */
        public Builder timeout(Duration timeout) {
            this.timeout = Deadline.clamp(OptionChecks.positive(timeout, "timeout"));
            return this;
        }

        /** Receives the call's progress updates (see the class). */
        public Builder onProgress(Consumer<McpProgress> listener) {
            this.onProgress = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** Whether each progress update starts the timeout anew (default false). */
        public Builder resetTimeoutOnProgress(boolean reset) {
            this.resetTimeoutOnProgress = reset;
            return this;
        }

        /** Answers the server's {@code sampling/createMessage} made while this call is in flight. */
        public Builder samplingHandler(McpClientRequestHandler handler) {
            this.samplingHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** Answers the server's {@code elicitation/create} made while this call is in flight. */
        public Builder elicitationHandler(McpClientRequestHandler handler) {
            this.elicitationHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** Answers the server's {@code roots/list} made while this call is in flight. */
        public Builder rootsHandler(McpClientRequestHandler handler) {
            this.rootsHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** Entries put into the request's {@code _meta} (copied; {@code progressToken} is set by the call). */
        public Builder meta(ObjectNode meta) {
            this.meta = Objects.requireNonNull(meta, "meta").deepCopy();
            return this;
        }

        /** The options; the builder can be reused. */
        public McpCallOptions build() {
            return new McpCallOptions(this);
        }
    }
}
