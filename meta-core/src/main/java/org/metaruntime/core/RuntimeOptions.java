package org.metaruntime.core;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.metaruntime.core.internal.Checks;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.SupervisionOptions;

/**
 * How a {@link UnifiedRuntime} starts, supervises, calls and stops its modules: a tree of the layers' own option
 * types, each settable whole or one field at a time.
 *
 * <pre>{@code
 * RuntimeOptions options = RuntimeOptions.builder()
 *         .onFailureRetryBudget(2)                                   // a field of startup()
 *         .supervision(SupervisionOptions.builder().maxRestarts(3).multiplier(1.5).build())
 *         .mcp(McpClientOptions.builder().root(new McpRoot("file:///srv/data", "data")).maxQueued(256).build())
 *         .process(ProcessOptions.builder().inheritEnv(false).passThroughEnv(Set.of("PATH", "HOME")).build())
 *         .build();
 * }</pre>
 *
 * <table>
 *   <caption>The groups</caption>
 *   <tr><th>group</th><th>type</th><th>what it sets</th></tr>
 *   <tr><td>{@link #startup()}</td><td>{@link StartupOptions}</td><td>startup budgets, backoff, timeout, parallelism</td></tr>
 *   <tr><td>{@link #supervision()}</td><td>{@link SupervisionOptions}</td><td>restarts after startup: backoff
 *       (initial 500 ms here, multiplier, cap, jitter), restart intensity</td></tr>
 *   <tr><td>{@link #stopLadder()}</td><td>{@link StopLadder}</td><td>the graces of stopping a child</td></tr>
 *   <tr><td>{@link #mcp()}</td><td>{@link McpClientOptions}</td><td>in-flight window, queue bound, roots, sampling
 *       and elicitation handlers of every MCP module</td></tr>
 *   <tr><td>{@link #process()}</td><td>{@link ProcessOptions}</td><td>environment, line and stderr limits, stdin queue</td></tr>
 *   <tr><td>{@link #eventLine()}</td><td>{@link EventLineOptions}</td><td>the exit grace of a routed event-line call</td></tr>
 *   <tr><td>{@link #events()}</td><td>{@link EventOptions}</td><td>the merged event buffer</td></tr>
 * </table>
 *
 * <p>Immutable and thread-safe.
 */
public final class RuntimeOptions {

    /** The runtime's first restart backoff after startup. */
    public static final Duration DEFAULT_SUPERVISION_BACKOFF = Duration.ofMillis(500);

    /** The shortest wait of a stop ladder made from a module's shutdown timeout. */
    public static final Duration MIN_STOP_STEP = Duration.ofMillis(100);
    /** The default call timeout of a module, {@link #callTimeout()}: 30 s. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(30);

    private static final RuntimeOptions DEFAULTS = builder().build();

    private final StartupOptions startup;
    private final SupervisionOptions supervision;
    private final StopLadder stopLadder;
    private final McpClientOptions mcp;
    private final ProcessOptions process;
    private final EventLineOptions eventLine;
    private final EventOptions events;
    private final Duration callTimeout;
    private final Set<String> coreModuleIds;
    private final boolean shutdownHook;

    private RuntimeOptions(Builder b, SupervisionOptions supervision, McpClientOptions mcp) {
        this.startup = b.startup;
        this.supervision = supervision;
        this.stopLadder = b.stopLadder;
        this.mcp = mcp;
        this.process = b.process;
        this.eventLine = b.eventLine;
        this.events = b.events;
        this.callTimeout = b.callTimeout;
        this.coreModuleIds = b.coreModuleIds;
        this.shutdownHook = b.shutdownHook;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The defaults of every group. */
    public static RuntimeOptions defaults() {
        return DEFAULTS;
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder().startup(startup).supervision(supervision).stopLadder(stopLadder).mcp(mcp)
                .process(process).eventLine(eventLine).events(events).callTimeout(callTimeout)
                .coreModuleIds(coreModuleIds).shutdownHook(shutdownHook);
    }

    /** How modules start. */
    public StartupOptions startup() {
        return startup;
    }

    /** How kept children are restarted after startup (initial backoff 500 ms unless set). */
    public SupervisionOptions supervision() {
        return supervision;
    }

    /** How a child is stopped: stdin closed, SIGTERM, SIGKILL, each after its grace (2 s / 2 s / 2 s). */
    public StopLadder stopLadder() {
        return stopLadder;
    }

    /** The MCP client options shared by every MCP module (a module's own in-flight bound wins). */
    public McpClientOptions mcp() {
        return mcp;
    }

    /** The environment and pipe limits of every module process. */
    public ProcessOptions process() {
        return process;
    }

    /** How a routed event-line call ends after its first line. */
    public EventLineOptions eventLine() {
        return eventLine;
    }

    /** The merged event buffer. */
    public EventOptions events() {
        return events;
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

    /** Whether the runtime registers a JVM shutdown hook that stops its children. Default {@code true}. */
    public boolean shutdownHook() {
        return shutdownHook;
    }

    /** The startup timeout of {@code module}: its own, else the startup group's. */
    public Duration startupTimeoutFor(ModuleConfig module) {
        return module.startupTimeout().orElse(startup.timeout());
    }

    /** The default call timeout of {@code module}: its own, else {@link #callTimeout()}. */
    public Duration callTimeoutFor(ModuleConfig module) {
        return module.callTimeout().orElse(callTimeout);
    }

    /** The in-flight bound of {@code module}: its own, else the MCP group's. */
    public int maxInFlightCallsFor(ModuleConfig module) {
        return module.maxInFlightCalls().orElse(mcp.maxInFlight());
    }

    /**
     * The stop ladder of {@code module}: a third of its {@linkplain ModuleConfig#shutdownTimeout() shutdown timeout}
     * (at least {@link #MIN_STOP_STEP}) for each of the first two steps; else its own shutdown grace for them; else the
     * runtime's graces. The wait after SIGKILL is always the runtime's.
     */
    public StopLadder stopLadderFor(ModuleConfig module) {
        if (module.shutdownTimeout().isPresent()) {
            Duration step = Duration.ofMillis(Math.max(MIN_STOP_STEP.toMillis(),
                    module.shutdownTimeout().get().toMillis() / 3));
            return new StopLadder(step, step, stopLadder.killWait());
        }
        return module.shutdownGrace().map(grace -> new StopLadder(grace, grace, stopLadder.killWait()))
                .orElse(stopLadder);
    }

    @Override
    public String toString() {
        return "RuntimeOptions[startup=" + startup + ", supervision=" + supervision + ", stopLadder=" + stopLadder
                + ", process=" + process + ", eventLine=" + eventLine + ", events=" + events + ", callTimeout="
                + callTimeout + ", coreModuleIds=" + coreModuleIds + ", shutdownHook=" + shutdownHook + "]";
    }

    /**
     * Builds {@link RuntimeOptions}: set a whole group, or one of its fields through the shortcuts. Each setter
     * validates and throws {@link ConfigException} naming the field. Not thread-safe.
     */
    public static final class Builder {
        private StartupOptions startup = StartupOptions.defaults();
        private SupervisionOptions.Builder supervision = SupervisionOptions.defaults().toBuilder()
                .initialBackoff(DEFAULT_SUPERVISION_BACKOFF);
        private StopLadder stopLadder = StopLadder.defaults();
        private McpClientOptions.Builder mcp = McpClientOptions.defaults().toBuilder();
        private ProcessOptions process = ProcessOptions.defaults();
        private EventLineOptions eventLine = EventLineOptions.defaults();
        private EventOptions events = EventOptions.defaults();
        private Duration callTimeout = DEFAULT_CALL_TIMEOUT;
        private Set<String> coreModuleIds = Set.of("router", "delivery", "memory");
        private boolean shutdownHook = true;

        private Builder() {
        }

        public Builder startup(StartupOptions startup) {
            this.startup = Objects.requireNonNull(startup, "startup");
            return this;
        }

        public Builder supervision(SupervisionOptions supervision) {
            this.supervision = Objects.requireNonNull(supervision, "supervision").toBuilder();
            return this;
        }

        public Builder stopLadder(StopLadder stopLadder) {
            this.stopLadder = Objects.requireNonNull(stopLadder, "stopLadder");
            return this;
        }

        public Builder mcp(McpClientOptions mcp) {
            this.mcp = Objects.requireNonNull(mcp, "mcp").toBuilder();
            return this;
        }

        public Builder process(ProcessOptions process) {
            this.process = Objects.requireNonNull(process, "process");
            return this;
        }

        public Builder eventLine(EventLineOptions eventLine) {
            this.eventLine = Objects.requireNonNull(eventLine, "eventLine");
            return this;
        }

        public Builder events(EventOptions events) {
            this.events = Objects.requireNonNull(events, "events");
            return this;
        }

        /** Sets {@link RuntimeOptions#callTimeout()}. */
        public Builder callTimeout(Duration timeout) {
            this.callTimeout = Checks.positive(timeout, "callTimeout");
            return this;
        }

        /** Sets {@link RuntimeOptions#coreModuleIds()}. */
        public Builder coreModuleIds(Set<String> ids) {
            this.coreModuleIds = Set.copyOf(Objects.requireNonNull(ids, "coreModuleIds"));
            return this;
        }

        /** Sets {@link RuntimeOptions#shutdownHook()}. */
        public Builder shutdownHook(boolean register) {
            this.shutdownHook = register;
            return this;
        }

        // Shortcuts to one field of a group.

        private Builder changeStartup(UnaryOperator<StartupOptions.Builder> change) {
            return startup(change.apply(startup.toBuilder()).build());
        }

        private Builder changeProcess(UnaryOperator<ProcessOptions.Builder> change) {
            return process(change.apply(process.toBuilder()).build());
        }

        /** {@link StartupOptions#onFailureRetryBudget()}. */
        public Builder onFailureRetryBudget(int budget) {
            return changeStartup(b -> b.onFailureRetryBudget(budget));
        }

        /** {@link StartupOptions#alwaysRestartBudget()}. */
        public Builder alwaysRestartBudget(int budget) {
            return changeStartup(b -> b.alwaysRestartBudget(budget));
        }

        /** {@link StartupOptions#restartBackoff()}. */
        public Builder restartBackoff(Duration backoff) {
            return changeStartup(b -> b.restartBackoff(backoff));
        }

        /** {@link StartupOptions#timeout()}. */
        public Builder startupTimeout(Duration timeout) {
            return changeStartup(b -> b.timeout(timeout));
        }

        /** {@link StartupOptions#parallelism()}. */
        public Builder startupParallelism(int parallelism) {
            return changeStartup(b -> b.parallelism(parallelism));
        }

        /** {@link EventOptions#retention()}. */
        public Builder eventRetention(int retention) {
            return events(new EventOptions(retention, events.dropBatch()));
        }

        /** {@link EventOptions#dropBatch()}. */
        public Builder eventDropBatch(int batch) {
            return events(new EventOptions(events.retention(), batch));
        }

        /** {@link ProcessOptions#inheritEnv()}. */
        public Builder inheritEnv(boolean inherit) {
            return changeProcess(b -> b.inheritEnv(inherit));
        }

        /** {@link ProcessOptions#passThroughEnv()}. */
        public Builder passThroughEnv(Set<String> names) {
            return changeProcess(b -> b.passThroughEnv(names));
        }

        /** {@link ProcessOptions#env()}: variables added to the environment of every module process. */
        public Builder processEnv(Map<String, String> variables) {
            return changeProcess(b -> b.env(variables));
        }

        /** {@link ProcessOptions#maxLineBytes()}. */
        public Builder maxLineBytes(int max) {
            return changeProcess(b -> b.maxLineBytes(max));
        }

        /** {@link ProcessOptions#stderrTailBytes()}. */
        public Builder stderrTailBytes(int bytes) {
            return changeProcess(b -> b.stderrTailBytes(bytes));
        }

        /** {@link EventLineOptions#exitGrace()}. */
        public Builder eventLineExitGrace(Duration grace) {
            return eventLine(EventLineOptions.exitGrace(Checks.nonNegative(grace, "eventLineExitGrace")));
        }

        /** {@link StopLadder#stdinGrace()}. */
        public Builder stopStdinGrace(Duration grace) {
            Checks.nonNegative(grace, "stopStdinGrace");
            return stopLadder(new StopLadder(grace, stopLadder.termGrace(), stopLadder.killWait()));
        }

        /** {@link StopLadder#termGrace()}. */
        public Builder stopTermGrace(Duration grace) {
            Checks.nonNegative(grace, "stopTermGrace");
            return stopLadder(new StopLadder(stopLadder.stdinGrace(), grace, stopLadder.killWait()));
        }

        /** {@link StopLadder#killWait()}. */
        public Builder stopKillWait(Duration wait) {
            Checks.nonNegative(wait, "stopKillWait");
            return stopLadder(new StopLadder(stopLadder.stdinGrace(), stopLadder.termGrace(), wait));
        }

        /** {@link McpClientOptions#maxInFlight()}. */
        public Builder maxInFlightCalls(int max) {
            Checks.atLeast(max, 1, "maxInFlightCalls");
            mcp.maxInFlight(max);
            return this;
        }

        /** {@link SupervisionOptions#maxRestarts()}. */
        public Builder maxRestarts(int max) {
            Checks.nonNegative(max, "maxRestarts");
            return supervisionField("maxRestarts", s -> s.maxRestarts(max));
        }

        /** {@link SupervisionOptions#restartWindow()}. */
        public Builder restartWindow(Duration window) {
            Checks.positive(window, "restartWindow");
            return supervisionField("restartWindow", s -> s.restartWindow(window));
        }

        /** {@link SupervisionOptions#initialBackoff()}. */
        public Builder supervisionBackoff(Duration initial) {
            Checks.nonNegative(initial, "supervisionBackoff");
            return supervisionField("supervisionBackoff", s -> s.initialBackoff(initial));
        }

        /** {@link SupervisionOptions#maxBackoff()}. */
        public Builder supervisionBackoffMax(Duration max) {
            Checks.nonNegative(max, "supervisionBackoffMax");
            return supervisionField("supervisionBackoffMax", s -> s.maxBackoff(max));
        }

        /** {@link SupervisionOptions#multiplier()}: a finite number, at least 1. */
        public Builder supervisionMultiplier(double multiplier) {
            return supervisionField("supervisionMultiplier", s -> s.multiplier(multiplier));
        }

        /** {@link SupervisionOptions#jitter()}. */
        public Builder supervisionJitter(double jitter) {
            if (!(jitter >= 0.0 && jitter <= 1.0)) {
                throw new ConfigException("supervisionJitter", "the jitter must be in [0, 1], got " + jitter);
            }
            return supervisionField("supervisionJitter", s -> s.jitter(jitter));
        }

        private Builder supervisionField(String field, Function<SupervisionOptions.Builder, ?> set) {
            try {
                set.apply(supervision);
            } catch (InvalidOptionException e) {
                throw new ConfigException(field, e.field() + " " + e.problem());
            }
            return this;
        }

        /**
         * The options.
         *
         * @throws ConfigException when the groups are inconsistent, its field the path in the group (e.g.
         *                         {@code supervision.maxBackoff} for a restart backoff cap below its first backoff)
         */
        public RuntimeOptions build() {
            return new RuntimeOptions(this, group("supervision", supervision::build), group("mcp", mcp::build));
        }

        /** The group {@code build} makes; its refusal is a {@link ConfigException} at the group's path. */
        private static <T> T group(String name, Supplier<T> build) {
            try {
                return build.get();
            } catch (InvalidOptionException e) {
                throw new ConfigException(InvalidOptionException.path(name, e.field()), e.problem());
            }
        }
    }
}
