package org.metaruntime.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * How the MCP client talks to a module: in-flight limit, queue, roots, handlers for server-to-client
 * requests, the capabilities announced, and the stop ladders used on close. Immutable and thread-safe; build with {@link #builder()}.
 *
 * <pre>{@code
 * McpClientOptions options = McpClientOptions.builder()
 *         .maxInFlight(16)
 *         .root(new McpRoot("file:///srv/data", "data"))
 *         .requestHandler("x/lookup", (moduleId, params) -> lookups.answerAsync(params))   // a server's own method
 *         .build();
 * }</pre>
 */
public final class McpClientOptions {

    /** Default number of {@code tools/call} requests one connection keeps in flight. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 64;
    /** Default number of calls that may wait for an in-flight slot. */
    public static final int DEFAULT_MAX_QUEUED = 1024;

    /**
     * The default ladder for closing a {@link McpSessionMode#PER_CALL} server once its call is done: 250 ms for
     * the server to exit on stdin EOF, then SIGTERM with 2 s, then SIGKILL with 2 s.
     */
    public static final StopLadder DEFAULT_PER_CALL_STOP_LADDER = new StopLadder(Duration.ofMillis(250),
            Duration.ofSeconds(2), Duration.ofSeconds(2));

    private static final McpClientOptions DEFAULTS = builder().build();

    private final int maxInFlight;
    private final int maxQueued;
    private final List<McpRoot> roots;
    private final Map<String, McpClientRequestHandler> requestHandlers;
    private final StopLadder stopLadder;
    private final StopLadder perCallStopLadder;
    private final boolean announceSampling;
    private final boolean announceElicitation;
    private final List<McpSchema.Tool> bareTools;
    private final boolean bareUnlessMcp;
    private final BiConsumer<String, String> bareListener;
    private final McpProtocolEra protocolEra;
    private final boolean perCallCapabilities;

    private McpClientOptions(Builder b) {
        this.maxInFlight = b.maxInFlight;
        this.maxQueued = b.maxQueued;
        this.roots = List.copyOf(b.roots);
        this.requestHandlers = Collections.unmodifiableMap(new LinkedHashMap<>(b.requestHandlers));
        this.stopLadder = b.stopLadder;
        this.perCallStopLadder = b.perCallStopLadder;
        this.announceSampling = b.announceSampling;
        this.announceElicitation = b.announceElicitation;
        this.bareTools = b.bareTools == null ? null : List.copyOf(b.bareTools);
        this.bareUnlessMcp = b.bareUnlessMcp;
        this.bareListener = b.bareListener;
        this.protocolEra = b.protocolEra;
        this.perCallCapabilities = b.perCallCapabilities;
    }

    /** A new builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The defaults: 64 in flight, 1024 queued, no roots, no handlers, {@link StopLadder#defaults()} on close,
     * {@link #DEFAULT_PER_CALL_STOP_LADDER} after a per-call server's call.
     */
    public static McpClientOptions defaults() {
        return DEFAULTS;
    }

    /** Calls sent and not yet answered, per connection (default 64). */
    public int maxInFlight() {
        return maxInFlight;
    }

    /** Calls waiting for an in-flight slot, per connection (default 1024); a call beyond it fails at once. */
    public int maxQueued() {
        return maxQueued;
    }

    /**
     * The handler for {@code roots/list} when no call's handler answers it; empty means the configured
     * {@link #roots()} are returned.
     */
    public Optional<McpClientRequestHandler> rootsHandler() {
        return requestHandler(McpSchema.METHOD_ROOTS_LIST);
    }

    /** The roots returned to {@code roots/list} (default none). */
    public List<McpRoot> roots() {
        return roots;
    }

    /** The handler for {@code sampling/createMessage}; empty means the request gets a JSON-RPC error. */
    public Optional<McpClientRequestHandler> samplingHandler() {
        return requestHandler(McpSchema.METHOD_SAMPLING_CREATE_MESSAGE);
    }

    /** The handler for {@code elicitation/create}; empty means the request gets a JSON-RPC error. */
    public Optional<McpClientRequestHandler> elicitationHandler() {
        return requestHandler(McpSchema.METHOD_ELICITATION_CREATE);
    }

    /** The connection's handler of server requests of {@code method}, if one is registered. */
    public Optional<McpClientRequestHandler> requestHandler(String method) {
        return Optional.ofNullable(requestHandlers.get(method));
    }

    /**
     * Every registered handler of server-to-client requests, by method (sampling, elicitation and roots ones
     * included), in registration order.
     */
    public Map<String, McpClientRequestHandler> requestHandlers() {
        return requestHandlers;
    }

    /**
     * The ladder used to stop the server on close (default {@link StopLadder#defaults()}); when it does not fit
     * in the close timeout, its graces are shortened in proportion.
     */
    public StopLadder stopLadder() {
        return stopLadder;
    }

    /**
     * The ladder used to stop a {@link McpSessionMode#PER_CALL} server once its call is done (default
     * {@link #DEFAULT_PER_CALL_STOP_LADDER}): the call's outcome is known, so a server that ignores stdin EOF costs
     * only the short stdin grace before SIGTERM. Shortened like {@link #stopLadder()} to fit the call's timeout.
     */
    public StopLadder perCallStopLadder() {
        return perCallStopLadder;
    }

    /**
     * Whether the sampling capability is announced though no connection-level handler is registered (default
     * false): for hosts that answer {@code sampling/createMessage} per call ({@link McpCallOptions}).
     */
    public boolean announceSampling() {
        return announceSampling;
    }

    /** Like {@link #announceSampling()}, for {@code elicitation/create}. */
    public boolean announceElicitation() {
        return announceElicitation;
    }

    /**
     * The declared tools of a bare JSON-RPC server, if this connection talks to one: a server that does not
     * implement {@code initialize} or {@code tools/list} and answers {@code tools/call} requests with
     * {@code {jsonrpc, id, result}}. Then no handshake is run and no notification is sent; the tools are these;
     * a {@code result} that is not a {@code CallToolResult} (an object with a {@code content} array) is taken as
     * {@code {"content":[{"type":"text","text":<result as JSON>}],"structuredContent":<result>}}.
     */
    public Optional<List<McpSchema.Tool>> bareTools() {
        return bareUnlessMcp ? Optional.empty() : Optional.ofNullable(bareTools);
    }

    /**
     * The declared tools of a stdio server that may speak MCP or bare JSON-RPC 2.0, if this connection talks to one
     * ({@link Builder#bareUnlessMcp(List)}): {@code initialize} is sent as to any server, and an answer that is an
     * MCP initialize result (an object with a {@code protocolVersion}) makes it an MCP session. Any other answer (a
     * JSON-RPC error, or another result) makes it a bare server with these tools, as {@link #bareTools()} describes:
     * no {@code notifications/initialized} nor any other notification is sent to it. So does no answer by the last
     * second of the connect timeout (by its half, when it is under two seconds), the rest being left for the start
     * to end: the detection never takes longer.
     */
    public Optional<List<McpSchema.Tool>> bareUnlessMcp() {
        return bareUnlessMcp ? Optional.of(bareTools) : Optional.empty();
    }

    /**
     * Told the module id, and why (what it answered to {@code initialize}, or that it did not answer in time), each
     * time a server with {@link #bareUnlessMcp()} tools is taken for a bare JSON-RPC server, on the thread that reads
     * its answer: it must be fast and must not throw. By default nothing is told.
     */
    public BiConsumer<String, String> bareListener() {
        return bareListener;
    }

    /**
     * The era of MCP the servers are spoken to in (default {@link McpProtocolEra#AUTO}: probed with
     * {@code server/discover}, falling back to {@code initialize}).
     */
    public McpProtocolEra protocolEra() {
        return protocolEra;
    }

    /**
     * Whether a modern server ({@code 2026-07-28}) is told client capabilities only per call (default false): the
     * requests the client makes of its own (the {@code server/discover} probe and health checks, lists,
     * {@code subscriptions/listen}) then carry {@code clientCapabilities} {@code {}}, and a call carries those its
     * {@link McpCallOptions#meta()} declares under {@code io.modelcontextprotocol/clientCapabilities} (else those of
     * its own handlers). For hosts that answer a server's input requests on behalf of another client, whose
     * capabilities they pass on per call. By default every request declares those of the registered handlers and
     * roots.
     */
    public boolean perCallCapabilities() {
        return perCallCapabilities;
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.maxInFlight = maxInFlight;
        b.maxQueued = maxQueued;
        b.roots.addAll(roots);
        b.requestHandlers.putAll(requestHandlers);
        b.stopLadder = stopLadder;
        b.perCallStopLadder = perCallStopLadder;
        b.announceSampling = announceSampling;
        b.announceElicitation = announceElicitation;
        b.bareTools = bareTools;
        b.bareUnlessMcp = bareUnlessMcp;
        b.bareListener = bareListener;
        b.protocolEra = protocolEra;
        b.perCallCapabilities = perCallCapabilities;
        return b;
    }

    /** Builds {@link McpClientOptions}. Not thread-safe. */
    public static final class Builder {
        private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
        private int maxQueued = DEFAULT_MAX_QUEUED;
        private final List<McpRoot> roots = new ArrayList<>();
        private final Map<String, McpClientRequestHandler> requestHandlers = new LinkedHashMap<>();
        private StopLadder stopLadder = StopLadder.defaults();
        private StopLadder perCallStopLadder = DEFAULT_PER_CALL_STOP_LADDER;
        private boolean announceSampling;
        private boolean announceElicitation;
        private List<McpSchema.Tool> bareTools;
        private boolean bareUnlessMcp;
        private BiConsumer<String, String> bareListener = (moduleId, because) -> { };
        private McpProtocolEra protocolEra = McpProtocolEra.AUTO;
        private boolean perCallCapabilities;

        private Builder() {
        }

        /** Calls in flight per connection; at least 1. */
        public Builder maxInFlight(int maxInFlight) {
            this.maxInFlight = OptionChecks.atLeast(maxInFlight, 1, "maxInFlight");
            return this;
        }

        /** Calls waiting for a slot per connection; 0 means a call beyond the in-flight limit fails at once. */
        public Builder maxQueued(int maxQueued) {
            OptionChecks.nonNegative(maxQueued, "maxQueued");
            this.maxQueued = maxQueued;
            return this;
        }

        /** Adds a root. */
        public Builder root(McpRoot root) {
            roots.add(Objects.requireNonNull(root, "root"));
            return this;
        }

        /** Replaces the roots. */
        public Builder roots(List<McpRoot> roots) {
            List<McpRoot> copy = List.copyOf(Objects.requireNonNull(roots, "roots"));
            this.roots.clear();
            this.roots.addAll(copy);
            return this;
        }

        /** Answers {@code sampling/createMessage} (and announces the sampling capability). */
        public Builder samplingHandler(McpClientRequestHandler handler) {
            return requestHandler(McpSchema.METHOD_SAMPLING_CREATE_MESSAGE, handler);
        }

        /** Answers {@code elicitation/create} (and announces the elicitation capability). */
        public Builder elicitationHandler(McpClientRequestHandler handler) {
            return requestHandler(McpSchema.METHOD_ELICITATION_CREATE, handler);
        }

        /** Answers {@code roots/list} (instead of the configured roots) when no call's handler does. */
        public Builder rootsHandler(McpClientRequestHandler handler) {
            return requestHandler(McpSchema.METHOD_ROOTS_LIST, handler);
        }

        /**
         * Answers the server's requests of {@code method} on every connection built with these options: any method
         * a server sends to its client, such as a method of its own. The server's request ids are its own: answers go
         * back under the id it chose, whatever ids the client's requests use, and several such requests may be in
         * flight at once. The handler's stage may fail with {@link McpClientRequestException} to answer a JSON-RPC
         * error of its choice. {@code sampling/createMessage}, {@code elicitation/create} and {@code roots/list}
         * registered here are the same as {@link #samplingHandler}, {@link #elicitationHandler} and
         * {@link #rootsHandler}; {@code ping} is always answered by the client itself.
         *
         * @throws InvalidOptionException for {@code ping} or a blank method
         */
        public Builder requestHandler(String method, McpClientRequestHandler handler) {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(handler, "handler");
            if (method.isBlank() || method.equals(McpSchema.METHOD_PING)) {
                throw new InvalidOptionException("requestHandlers", "no handler can be registered for \"" + method + "\"");
            }
            requestHandlers.put(method, handler);
            return this;
        }

        /** The stop ladder used on close. */
        public Builder stopLadder(StopLadder stopLadder) {
            this.stopLadder = Objects.requireNonNull(stopLadder, "stopLadder");
            return this;
        }

        /** The stop ladder used once a per-call server's call is done. */
        public Builder perCallStopLadder(StopLadder stopLadder) {
            this.perCallStopLadder = Objects.requireNonNull(stopLadder, "stopLadder");
            return this;
        }

        /** Announce the sampling capability even without a connection-level handler. */
        public Builder announceSampling(boolean announce) {
            this.announceSampling = announce;
            return this;
        }

        /** Announce the elicitation capability even without a connection-level handler. */
        public Builder announceElicitation(boolean announce) {
            this.announceElicitation = announce;
            return this;
        }

        /** Talk to a bare JSON-RPC server with these declared tools (see {@link McpClientOptions#bareTools()}). */
        public Builder bare(List<McpSchema.Tool> declaredTools) {
            this.bareTools = List.copyOf(Objects.requireNonNull(declaredTools, "declaredTools"));
            this.bareUnlessMcp = false;
            return this;
        }

        /**
         * Talk to a stdio server that may speak MCP or bare JSON-RPC 2.0, with these declared tools for the latter
         * (see {@link McpClientOptions#bareUnlessMcp()}); replaces {@link #bare(List)}.
         */
        public Builder bareUnlessMcp(List<McpSchema.Tool> declaredTools) {
            this.bareTools = List.copyOf(Objects.requireNonNull(declaredTools, "declaredTools"));
            this.bareUnlessMcp = true;
            return this;
        }

        /** Who is told of each server found to speak bare JSON-RPC (see {@link McpClientOptions#bareListener()}). */
        public Builder bareListener(BiConsumer<String, String> listener) {
            this.bareListener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** The era of MCP the servers are spoken to in (see {@link McpClientOptions#protocolEra()}). */
        public Builder protocolEra(McpProtocolEra era) {
            this.protocolEra = Objects.requireNonNull(era, "era");
            return this;
        }

        /** Tell a modern server client capabilities only per call (see {@link McpClientOptions#perCallCapabilities()}). */
        public Builder perCallCapabilities(boolean perCall) {
            this.perCallCapabilities = perCall;
            return this;
        }

        /** The options; the builder can be reused. */
        public McpClientOptions build() {
            return new McpClientOptions(this);
        }
    }
}
