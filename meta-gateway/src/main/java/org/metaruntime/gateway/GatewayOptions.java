package org.metaruntime.gateway;

import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.internal.manifest.Names;
import org.metaruntime.gateway.spi.CallListener;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * How a gateway names and runs its pods. Immutable and thread-safe; build with {@link #builder()}.
 *
 * <pre>{@code
 * GatewayOptions options = GatewayOptions.builder().separator("-").maxCallDepth(4).build();   // outward names pod-tool
 * }</pre>
 */
public final class GatewayOptions {

    private final String separator;
    private final RuntimeOptions runtime;
    private final EventLog eventLog;
    private final int maxCallDepth;
    private final URI otlpEndpoint;
    private final SpanExporter traceExporter;
    private final GatewayPolicy policy;
    private final String localProfile;
    private final List<CallListener> callListeners;
    private final boolean auditArguments;

    private GatewayOptions(Builder b) {
        this.otlpEndpoint = b.otlpEndpoint;
        this.traceExporter = b.traceExporter;
        this.separator = b.separator;
        this.runtime = b.runtime;
        this.eventLog = b.eventLog;
        this.maxCallDepth = b.maxCallDepth;
        this.policy = b.policy;
        this.localProfile = b.localProfile;
        this.callListeners = List.copyOf(b.callListeners);
        this.auditArguments = b.auditArguments;
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.otlpEndpoint = otlpEndpoint;
        b.traceExporter = traceExporter;
        b.separator = separator;
        b.runtime = runtime;
        b.eventLog = eventLog;
        b.maxCallDepth = maxCallDepth;
        b.policy = policy;
        b.localProfile = localProfile;
        b.callListeners.addAll(callListeners);
        b.auditArguments = auditArguments;
        return b;
    }

    /** The default {@link #maxCallDepth()}. */
    public static final int DEFAULT_MAX_CALL_DEPTH = 8;

    /** The defaults: separator {@code __}, the runtime's default options, call chains of at most 8. */
    public static GatewayOptions defaults() {
        return builder().build();
    }

    /** What joins a pod's name and a tool's name in outward names; default {@code __}. */
    public String separator() {
        return separator;
    }

    /** The options of the runtime that runs the pods (restart budget and backoff, ...). */
    public RuntimeOptions runtime() {
        return runtime;
    }

    /** The event log the pods' runtime appends every event to (the host's: flushed when the gateway closes, not closed). */
    public Optional<EventLog> eventLog() {
        return Optional.ofNullable(eventLog);
    }

    /**
     * The most entries a chain of pod-to-pod calls may have, the client's call included (default 8): a pod's call
     * whose target would get a longer chain fails with -32004.
     */
    public int maxCallDepth() {
        return maxCallDepth;
    }

    /**
     * The OTLP/HTTP endpoint the spans of calls are exported to ({@code <endpoint>/v1/traces}); empty: the one
     * {@code OTEL_EXPORTER_OTLP_ENDPOINT} names, else none.
     */
    public Optional<URI> otlpEndpoint() {
        return Optional.ofNullable(otlpEndpoint);
    }

    /** The host's exporter of the spans of calls (wins over {@link #otlpEndpoint()}). */
    public Optional<SpanExporter> traceExporter() {
        return Optional.ofNullable(traceExporter);
    }

    /** Which tools each principal may call, and how often (default {@link GatewayPolicy#allowAll()}). */
    public GatewayPolicy policy() {
        return policy;
    }

    /**
     * The profile of the {@code local} (stdio) and {@code anonymous} (HTTP without credentials) principals; empty: the
     * policy's default profile.
     */
    public Optional<String> localProfile() {
        return Optional.ofNullable(localProfile);
    }

    /** The listeners told of every answered call, in the order added. */
    public List<CallListener> callListeners() {
        return callListeners;
    }

    /** Whether call records (and {@code gateway.call} events) carry the arguments, secret-looking values redacted. */
    public boolean auditArguments() {
        return auditArguments;
    }

    /** Builds {@link GatewayOptions}. Not thread-safe. */
    public static final class Builder {
        private String separator = Names.DEFAULT_SEPARATOR;
        private RuntimeOptions runtime = RuntimeOptions.defaults();
        private EventLog eventLog;
        private int maxCallDepth = DEFAULT_MAX_CALL_DEPTH;
        private URI otlpEndpoint;
        private SpanExporter traceExporter;
        private GatewayPolicy policy = GatewayPolicy.allowAll();
        private String localProfile;
        private final List<CallListener> callListeners = new ArrayList<>();
        private boolean auditArguments;

        private Builder() {
        }

        /** Sets the policy: profiles, claim rules, rate limits. */
        public Builder policy(GatewayPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets the profile of the {@code local} (stdio) and {@code anonymous} (HTTP without credentials) principals
         * (null: the policy's default profile); {@link #build()} checks that the policy has it.
         */
        public Builder localProfile(String profile) {
            this.localProfile = profile;
            return this;
        }

        /** Adds a listener told of every answered call, client and nested (repeatable; called in order). */
        public Builder callListener(CallListener listener) {
            callListeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** Sets whether call records and audit events carry the arguments, secret-looking values redacted (default false). */
        public Builder auditArguments(boolean auditArguments) {
            this.auditArguments = auditArguments;
            return this;
        }

        /**
         * Exports the span of every call over OTLP/HTTP ({@code http/protobuf}) to {@code endpoint}{@code /v1/traces}
         * (null: the endpoint of {@code OTEL_EXPORTER_OTLP_ENDPOINT}, else no export). Pods get the calls' trace
         * context either way.
         *
         * @throws InvalidOptionException when it is not an {@code http} or {@code https} URL
         */
        public Builder otlpEndpoint(URI endpoint) {
            if (endpoint != null && !("http".equals(endpoint.getScheme()) || "https".equals(endpoint.getScheme()))) {
                throw new InvalidOptionException("otlpEndpoint", "must be an http or https URL, not " + endpoint);
            }
            this.otlpEndpoint = endpoint;
            return this;
        }

        /**
         * Exports the span of every call to {@code exporter} (null: none; wins over {@link #otlpEndpoint(URI)}); the
         * gateway shuts it down when it closes.
         */
        public Builder traceExporter(SpanExporter exporter) {
            this.traceExporter = exporter;
            return this;
        }

        /**
         * Sets the most entries a chain of pod-to-pod calls may have.
         *
         * @throws InvalidOptionException when it is less than 1
         */
        public Builder maxCallDepth(int maxCallDepth) {
            this.maxCallDepth = OptionChecks.atLeast(maxCallDepth, 1, "maxCallDepth");
            return this;
        }

        /**
         * Sets the separator of outward names: 1 to 8 of letters, digits, {@code _} and {@code -}.
         *
         * @throws InvalidOptionException when clients would reject names made with it
         */
        public Builder separator(String separator) {
            if (!Names.validSeparator(separator)) {
                throw new InvalidOptionException("separator", "must be 1 to 8 of letters, digits, '_' and '-', not " + separator);
            }
            this.separator = separator;
            return this;
        }

        /** Sets the runtime's options. */
        public Builder runtime(RuntimeOptions runtime) {
            this.runtime = Objects.requireNonNull(runtime, "runtime");
            return this;
        }

        /**
         * Sets the event log of the pods' runtime (null: none); serve it over HTTP with
         * {@link EventEndpoints#mount}.
         */
        public Builder eventLog(EventLog eventLog) {
            this.eventLog = eventLog;
            return this;
        }

        /**
         * The options.
         *
         * @throws InvalidOptionException when the local profile is neither {@code all} nor a profile of the policy
         */
        public GatewayOptions build() {
            if (localProfile != null && !policy.hasProfile(localProfile)) {
                throw new InvalidOptionException("localProfile", "profile \"" + localProfile + "\" is neither all nor a profile of the policy "
                        + policy.profiles());
            }
            return new GatewayOptions(this);
        }
    }
}
