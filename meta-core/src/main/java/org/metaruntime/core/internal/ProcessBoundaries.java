package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import org.metaruntime.core.ConfigResolutionError;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleProtocol;
import org.metaruntime.core.ModuleSource;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.ProgressUpdate;
import org.metaruntime.core.ProcessOptions;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.RuntimeFromConfigError;
import org.metaruntime.core.RuntimeFromConfigException;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.eventline.EventLineCall;
import org.metaruntime.eventline.EventLineChild;
import org.metaruntime.eventline.EventLineError;
import org.metaruntime.eventline.EventLineException;
import org.metaruntime.eventline.EventLineRunner;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpToolCall;
import org.metaruntime.mcp.internal.CallMeta;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpPerCall;
import org.metaruntime.mcp.McpProbe;
import org.metaruntime.mcp.McpProbeResult;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.StopReport;
import org.metaruntime.supervisor.internal.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.metaruntime.supervisor.InFlight;

/**
 * The real boundaries: event-line modules run by meta-eventline's {@link EventLineRunner}, MCP modules reached
 * through meta-mcp's {@link McpConnection}; both spawn through the process layer. Every failure of a lower module
 * is turned into a {@link BoundaryFailure} here, and nowhere else.
 */
public final class ProcessBoundaries {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessBoundaries.class);
    private static final Duration CLOSE_MARGIN = Duration.ofSeconds(1);

    private ProcessBoundaries() {
    }

    /** The process spec of {@code module}: its argv and workdir, the merged environment, the runtime's limits. */
    public static ProcessSpec spec(ModuleConfig module, Optional<PreSpawnData> preSpawn, RuntimeOptions options) {
        ProcessOptions process = options.process();
        ProcessSpec.Builder spec = ProcessSpec.builder(module.id())
                .command(module.command())
                .env(Environments.overlay(process.env(), module, preSpawn))
                .inheritEnv(process.inheritEnv())
                .passThroughEnv(process.passThroughEnv())
                .maxLineBytes(process.maxLineBytes())
                .stderrTailBytes(process.stderrTailBytes())
                .stdinQueueBytes(process.stdinQueueBytes());
        if (module.workdir() != null) {
            spec.workdir(module.workdir());
        }
        return spec.build();
    }

    /** The real boundary of {@code module} for its {@code protocol}; nothing is spawned yet. */
    public static ModuleBoundary create(ModuleConfig module, Optional<PreSpawnData> preSpawn, ModuleProtocol protocol,
                                        RuntimeOptions options) {
        if (module.source() instanceof ModuleSource.Remote) {
            return new RemoteMcp(module.endpoint().orElseThrow(), mcpOptions(module, protocol, options));
        }
        ProcessSpec spec = spec(module, preSpawn, options);
        if (protocol instanceof ModuleProtocol.EventLine) {
            return new EventLine(spec, EventLineRunner.create(), options.eventLine().exitGrace().orElse(null));
        }
        return new Mcp(spec, mcpOptions(module, protocol, options));
    }

    /** The runtime's MCP client options for {@code module}: its in-flight limit and stop ladder, and its protocol's. */
    private static McpClientOptions mcpOptions(ModuleConfig module, ModuleProtocol protocol, RuntimeOptions options) {
        McpClientOptions.Builder mcp = options.mcp().toBuilder()
                .maxInFlight(options.maxInFlightCallsFor(module))
                .stopLadder(options.stopLadderFor(module));
        if (protocol instanceof ModuleProtocol.BareJsonRpc bare) {
            mcp.bare(bare.tools());
        } else if (protocol instanceof ModuleProtocol.Mcp declared) {
            declared.bareFallback().ifPresent(mcp::bareUnlessMcp);
            declared.era().ifPresent(mcp::protocolEra);
        }
        return mcp.build();
    }

    /**
     * Runs a discovered module of {@code config} once on the event-line path.
     *
     * @throws RuntimeFromConfigException {@code Config(ModuleNotConfigured | ModuleNotDiscovered)} or
     *                                    {@code Runtime(<boundary error>)}
     */
    public static EventEnvelope<UnifiedEvent> runDiscovered(MetaConfig config, String moduleId, Duration timeout) {
        java.util.Objects.requireNonNull(config, "config");
        java.util.Objects.requireNonNull(moduleId, "moduleId");
        java.util.Objects.requireNonNull(timeout, "timeout");
        Optional<ModuleConfig> module = config.module(moduleId);
        if (module.isEmpty()) {
            throw new RuntimeFromConfigException(moduleId, new RuntimeFromConfigError.Config(
                    new ConfigResolutionError.ModuleNotConfigured(moduleId)));
        }
        if (!config.isDiscovered(moduleId)) {
            throw new RuntimeFromConfigException(moduleId, new RuntimeFromConfigError.Config(
                    new ConfigResolutionError.ModuleNotDiscovered(moduleId)));
        }
        return runOnce(module.get(), config.preSpawnFor(moduleId), timeout);
    }

    /**
     * Runs {@code module} once on the event-line path with its pre-spawn environment and the default options.
     *
     * @throws RuntimeFromConfigException {@code Runtime(<boundary error>)}
     */
    public static EventEnvelope<UnifiedEvent> runOnce(ModuleConfig module, Optional<PreSpawnData> preSpawn,
                                                      Duration timeout) {
        RuntimeOptions defaults = RuntimeOptions.defaults();
        EventLineBoundary boundary = (EventLineBoundary) create(module, preSpawn, ModuleProtocol.eventLine(),
                defaults);
        InFlight<EventEnvelope<UnifiedEvent>> run = boundary.run(timeout);
        try {
            return run.result().get();
        } catch (ExecutionException e) {
            BoundaryFailure failure = failure(module.id(), e);
            throw new RuntimeFromConfigException(module.id(), new RuntimeFromConfigError.Runtime(failure.error()),
                    failure.exitCode(), failure.stderrTail(), failure);
        } catch (InterruptedException e) {
            run.cancel();
            Thread.currentThread().interrupt();
            throw new RuntimeFromConfigException(module.id(), new RuntimeFromConfigError.Runtime(
                    new RuntimeBoundaryError.Process(new ProcessBoundaryError.Io("interrupted"))), e);
        }
    }

    /** The options of one MCP call: its timeout, its {@code _meta} entries, and its progress listener as meta-mcp calls it. */
    static McpCallOptions mcpCall(CallSpec call) {
        McpCallOptions.Builder options = McpCallOptions.builder(call.timeout())
                .resetTimeoutOnProgress(call.options().resetTimeoutOnProgress());
        ObjectNode meta = CallOptionsMeta.held(call.options());
        if (meta != null) {
            CallMeta.hold(options, meta);
        }
        call.options().onProgress().ifPresent(listener -> options.onProgress(
                p -> listener.accept(new ProgressUpdate(p.progress(), p.total(), p.message()))));
        return options.build();
    }

    /** An MCP tool call as a boundary call: its payload with failures mapped, its cancel, and its end. */
    static InFlight<JsonNode> handle(String moduleId, McpToolCall call) {
        CompletableFuture<JsonNode> payload = call.payload().handle((value, error) -> {
            if (error != null) {
                throw failure(moduleId, error);
            }
            return value;
        });
        return InFlight.of(payload, call::cancel, call.finished());
    }

    private static ChildExit exitOf(ProcessExit exit) {
        return new ChildExit(OptionalInt.of(exit.exitCode()), exit.stderrTail(), exit.requestedByRuntime());
    }

    /** The one place a lower module's exception becomes a {@link BoundaryFailure}. */
    static BoundaryFailure failure(String moduleId, Throwable error) {
        Throwable cause = Failures.unwrap(error);
        if (cause instanceof BoundaryFailure) {
            return (BoundaryFailure) cause;
        }
        if (cause instanceof EventLineException) {
            EventLineException e = (EventLineException) cause;
            RuntimeBoundaryError mapped = e.error() instanceof EventLineError.Process
                    ? new RuntimeBoundaryError.Process(((EventLineError.Process) e.error()).error())
                    : new RuntimeBoundaryError.Normalize(((EventLineError.Normalize) e.error()).error());
            return new BoundaryFailure(moduleId, mapped, e.exitCode(), e.stderrTail(), e);
        }
        if (cause instanceof McpBoundaryException) {
            McpBoundaryException e = (McpBoundaryException) cause;
            return new BoundaryFailure(moduleId, new RuntimeBoundaryError.Mcp(e.error()), e.exitCode(), e.stderrTail(),
                    cause);
        }
        if (cause instanceof ProcessBoundaryException) {
            ProcessBoundaryError processError = ((ProcessBoundaryException) cause).error();
            OptionalInt exitCode = processError instanceof ProcessBoundaryError.Exited
                    ? OptionalInt.of(((ProcessBoundaryError.Exited) processError).exitCode()) : OptionalInt.empty();
            String tail = processError instanceof ProcessBoundaryError.Exited
                    ? ((ProcessBoundaryError.Exited) processError).stderrTail() : "";
            return new BoundaryFailure(moduleId, new RuntimeBoundaryError.Process(processError), exitCode, tail, cause);
        }
        if (cause instanceof NormalizationException) {
            return new BoundaryFailure(moduleId,
                    new RuntimeBoundaryError.Normalize(((NormalizationException) cause).error()),
                    OptionalInt.empty(), "", cause);
        }
        String message = cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
        return new BoundaryFailure(moduleId, new RuntimeBoundaryError.Process(new ProcessBoundaryError.Io(message)),
                OptionalInt.empty(), "", cause);
    }

    /** The event-line boundary: one process per start attempt or routed call; the first stdout line answers. */
    static final class EventLine implements EventLineBoundary {
        private final ProcessSpec spec;
        private final EventLineRunner runner;
        private final Duration exitGrace;

        EventLine(ProcessSpec spec, EventLineRunner runner, Duration exitGrace) {
            this.spec = spec;
            this.runner = runner;
            this.exitGrace = exitGrace;
        }

        @Override
        public ModuleChild start(Duration timeout) {
            try {
                return new Child(runner.startAttempt(spec, timeout));
            } catch (RuntimeException e) {
                throw failure(spec.moduleId(), e);
            }
        }

        @Override
        public InFlight<EventEnvelope<UnifiedEvent>> run(Duration timeout) {
            EventLineCall call = runner.call(spec, timeout, exitGrace);
            CompletableFuture<EventEnvelope<UnifiedEvent>> event = call.result().handle((value, error) -> {
                if (error != null) {
                    throw failure(spec.moduleId(), error);
                }
                return value;
            });
            return InFlight.of(event, call::cancel);
        }

        /** A kept event-line process after its first line. */
        private static final class Child implements ModuleChild {
            private final EventLineChild child;
            private final CompletableFuture<ChildExit> exit;

            Child(EventLineChild child) {
                this.child = child;
                this.exit = child.exitFuture().thenApply(ProcessBoundaries::exitOf);
            }

            @Override
            public OptionalLong pid() {
                return OptionalLong.of(child.pid());
            }

            @Override
            public String stderrTail() {
                return child.stderrTail();
            }

            @Override
            public Optional<EventEnvelope<UnifiedEvent>> firstEvent() {
                return Optional.of(child.event());
            }

            @Override
            public CompletableFuture<ChildExit> exit() {
                return exit;
            }

            @Override
            public int stop(StopLadder graces) {
                return child.stop(graces).survivors();
            }

            @Override
            public CompletableFuture<Integer> stopAsync(StopLadder graces) {
                return child.stopAsync(graces).thenApply(StopReport::survivors);
            }
        }
    }

    /** The MCP boundary: the startup probe's connection is kept ({@code PERSISTENT}) or a call opens its own. */
    static final class Mcp implements McpBoundary {
        private final ProcessSpec spec;
        private final McpClientOptions options;

        Mcp(ProcessSpec spec, McpClientOptions options) {
            this.spec = spec;
            this.options = options;
        }

        @Override
        public McpChild start(Duration timeout) {
            try {
                McpProbeResult probe = McpProbe.probe(spec, options, timeout);
                return new Connection(probe.connection(), probe.tools());
            } catch (RuntimeException e) {
                throw failure(spec.moduleId(), e);
            }
        }

        @Override
        public InFlight<JsonNode> callOnce(String tool, JsonNode arguments, CallSpec call, Executor executor) {
            return handle(spec.moduleId(), McpPerCall.start(spec, tool, arguments, mcpCall(call), options));
        }

    }

    /**
     * The boundary of a remote MCP module: each start connects to the endpoint, initialises and lists the tools; the
     * session serves every call. A lost server ends the child like a stdio server's exit.
     */
    static final class RemoteMcp implements McpBoundary {
        private final org.metaruntime.mcp.McpHttpEndpoint endpoint;
        private final McpClientOptions options;

        RemoteMcp(org.metaruntime.mcp.McpHttpEndpoint endpoint, McpClientOptions options) {
            this.endpoint = endpoint;
            this.options = options;
        }

        @Override
        public McpChild start(Duration timeout) {
            try {
                McpProbeResult probe = McpProbe.probe(endpoint, options, timeout);
                return new Connection(probe.connection(), probe.tools());
            } catch (RuntimeException e) {
                throw failure(endpoint.moduleId(), e);
            }
        }

        @Override
        public InFlight<JsonNode> callOnce(String tool, JsonNode arguments, CallSpec call, Executor executor) {
            throw new IllegalStateException("module '" + endpoint.moduleId() + "' is remote: it keeps one session");
        }
    }

    /** An open MCP connection: its calls are multiplexed on the one session (a stdio server process, or remote). */
    static final class Connection implements McpChild {
            private final McpConnection connection;
            private final McpSession session;
            private final List<String> tools;
            private final CompletableFuture<ChildExit> exit;

            Connection(McpConnection connection, List<String> tools) {
                this.connection = connection;
                this.session = McpSession.of(connection);
                this.tools = List.copyOf(tools);
                this.exit = connection.isRemote()
                        ? connection.sessionEnd().thenApply(end -> new ChildExit(OptionalInt.empty(), "",
                                end.closedByHost(), end.reason()))
                        : connection.exitFuture().thenApply(ProcessBoundaries::exitOf);
            }

            @Override
            public OptionalLong pid() {
                return connection.isRemote() ? OptionalLong.empty() : OptionalLong.of(connection.pid());
            }

            @Override
            public String stderrTail() {
                return connection.stderrTail();
            }

            @Override
            public Optional<EventEnvelope<UnifiedEvent>> firstEvent() {
                return Optional.empty();
            }

            @Override
            public List<String> tools() {
                return tools;
            }

            @Override
            public McpSession session() {
                return session;
            }

            @Override
            public CompletableFuture<ChildExit> exit() {
                return exit;
            }

            @Override
            public int stop(StopLadder graces) {
                return stopAsync(graces).join();
            }

            @Override
            public CompletableFuture<Integer> stopAsync(StopLadder graces) {
                return connection.closeAsync(graces.total().plus(CLOSE_MARGIN)).handle((ok, failure) -> {
                    if (failure == null) {
                        return 0;
                    }
                    Throwable cause = Failures.unwrap(failure);
                    LOG.warn("module '{}': {}", connection.moduleId(), cause.getMessage());
                    return cause instanceof McpBoundaryException e
                            && (e.error() instanceof McpBoundaryError.CloseFailed
                                || e.error() instanceof McpBoundaryError.Timeout) ? 1 : 0;
                });
            }
        }
}
