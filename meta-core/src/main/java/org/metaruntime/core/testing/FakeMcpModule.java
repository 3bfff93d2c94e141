package org.metaruntime.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.internal.BoundaryCall;
import org.metaruntime.core.internal.BoundaryFailure;
import org.metaruntime.core.internal.CallSpec;
import org.metaruntime.core.internal.ChildExit;
import org.metaruntime.core.internal.McpBoundary;
import org.metaruntime.core.internal.McpChild;
import org.metaruntime.core.internal.InProcessBoundaries;
import org.metaruntime.core.internal.ModuleBoundary;
import org.metaruntime.mcp.McpBoundaryError;

/**
 * A fake MCP module whose tools are Java lambdas. The runtime connects to it (the startup probe lists its tools in
 * registration order), calls its tools in {@code PERSISTENT} or {@code PER_CALL} mode, and supervises its
 * "connection" like a real child's.
 *
 * <pre>{@code
 * FakeMcpModule router = FakeMcpModule.builder("router")
 *         .tool("routing.resolve", args -> mapper.createObjectNode().put("route_id", "r-1"))
 *         .tool("slow", args -> { Thread.sleep(50); return args; })
 *         .build();
 * router.failNextConnects(1, new McpBoundaryError.ConnectionFailed("router", "refused"));
 * router.crash(1, "segfault");      // in-flight calls fail at once, the supervisor restarts the module
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class FakeMcpModule implements FakeModule {

    static {
        InProcessBoundaries.register(FakeMcpModule.class, FakeMcpModule::boundary);
    }

    private final String moduleId;
    private final Map<String, FakeTool> tools;
    private final Map<String, Duration> delays;
    private final Deque<McpBoundaryError> connectFailures = new ArrayDeque<>();
    private final AtomicInteger connects = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();
    private final FakeChildren children = new FakeChildren();

    private FakeMcpModule(Builder b) {
        this.moduleId = b.moduleId;
        this.tools = new LinkedHashMap<>(b.tools);
        this.delays = Map.copyOf(b.delays);
    }

    /** A builder for the fake of {@code moduleId}. */
    public static Builder builder(String moduleId) {
        return new Builder(Objects.requireNonNull(moduleId, "moduleId"));
    }

    @Override
    public String moduleId() {
        return moduleId;
    }

    @Override
    public ModuleBoundaryKind kind() {
        return ModuleBoundaryKind.MCP;
    }

    /** The next {@code count} connections (startup probe, restart, or {@code PER_CALL} call) fail with {@code error}. */
    public FakeMcpModule failNextConnects(int count, McpBoundaryError error) {
        Objects.requireNonNull(error, "error");
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0: " + count);
        }
        synchronized (connectFailures) {
            for (int i = 0; i < count; i++) {
                connectFailures.add(error);
            }
        }
        return this;
    }

    /** Ends every open connection as if the server exited with {@code exitCode}; its in-flight calls fail at once. */
    public void crash(int exitCode, String stderrTail) {
        children.crashAll(exitCode, Objects.requireNonNull(stderrTail, "stderrTail"));
    }

    /** How many connections were opened (including failed attempts). */
    public int connectCount() {
        return connects.get();
    }

    /** How many tool calls reached a tool. */
    public int callCount() {
        return calls.get();
    }

    /** How many connections are open. */
    public int openConnections() {
        return children.live();
    }

    private Connection connect() {
        connects.incrementAndGet();
        McpBoundaryError failure;
        synchronized (connectFailures) {
            failure = connectFailures.poll();
        }
        if (failure != null) {
            throw new BoundaryFailure(moduleId, new RuntimeBoundaryError.Mcp(failure));
        }
        Connection connection = new Connection();
        children.add(connection);
        return connection;
    }

    private ModuleBoundary boundary(Executor executor) {
        Objects.requireNonNull(executor, "executor");
        return new McpBoundary() {
            @Override
            public McpChild start(Duration timeout) {
                Connection connection = connect();
                connection.executor = executor;
                return connection;
            }

            @Override
            public BoundaryCall callOnce(String tool, JsonNode arguments, CallSpec call, Executor callExecutor) {
                Connection connection;
                try {
                    connection = connect();
                } catch (BoundaryFailure e) {
                    return BoundaryCall.failed(e);
                }
                connection.executor = executor;
                BoundaryCall started = connection.call(tool, arguments, call);
                started.payload().whenComplete((value, error) -> connection.stop(null));
                return BoundaryCall.of(started.payload(), () -> {
                    started.cancel();
                    connection.stop(null);
                });
            }
        };
    }

    private final class Connection extends FakeChildren.Base implements McpChild {
        private final Map<CompletableFuture<JsonNode>, String> inFlight = new ConcurrentHashMap<>();
        private volatile Executor executor;

        Connection() {
            children.super();
        }

        @Override
        public java.util.Optional<org.metaruntime.mcp.McpConnection> connection() {
            return java.util.Optional.empty();
        }

        @Override
        public List<String> tools() {
            return new ArrayList<>(tools.keySet());
        }

        @Override
        public BoundaryCall call(String tool, JsonNode arguments, CallSpec call) {
            CompletableFuture<JsonNode> result = new CompletableFuture<>();
            return BoundaryCall.of(start(result, tool, arguments, call.timeout()),
                    () -> result.completeExceptionally(failed(tool, "cancelled")));
        }

        private CompletableFuture<JsonNode> start(CompletableFuture<JsonNode> result, String tool, JsonNode arguments,
                                                  Duration timeout) {
            FakeTool handler = tools.get(tool);
            if (!alive()) {
                result.completeExceptionally(failed(tool, "the connection is closed"));
                return result;
            }
            if (handler == null) {
                result.completeExceptionally(new BoundaryFailure(moduleId, new RuntimeBoundaryError.Mcp(
                        new McpBoundaryError.ToolNotFound(moduleId, tool, tools()))));
                return result;
            }
            inFlight.put(result, tool);
            result.whenComplete((value, error) -> inFlight.remove(result));
            Duration delay = delays.getOrDefault(tool, Duration.ZERO);
            try {
                executor.execute(() -> run(result, handler, tool, arguments, delay, timeout));
            } catch (RejectedExecutionException e) {
                result.completeExceptionally(failed(tool, "the runtime is shutting down"));
            }
            result.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return result.handle((value, error) -> {
                if (error instanceof TimeoutException) {
                    throw new BoundaryFailure(moduleId, new RuntimeBoundaryError.Mcp(
                            new McpBoundaryError.Timeout(moduleId, "call_tool:" + tool, timeout.toMillis())));
                }
                if (error != null) {
                    throw error instanceof RuntimeException ? (RuntimeException) error : new IllegalStateException(error);
                }
                return value;
            });
        }

        private void run(CompletableFuture<JsonNode> result, FakeTool handler, String tool, JsonNode arguments,
                         Duration delay, Duration timeout) {
            try {
                if (!delay.isZero()) {
                    Thread.sleep(Math.min(delay.toMillis(), timeout.toMillis() + 1));
                    if (delay.compareTo(timeout) > 0) {
                        return;
                    }
                }
                calls.incrementAndGet();
                result.complete(handler.call(arguments));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                result.completeExceptionally(failed(tool, "interrupted"));
            } catch (Exception e) {
                result.completeExceptionally(failed(tool, e.getMessage() == null ? e.toString() : e.getMessage()));
            }
        }

        private BoundaryFailure failed(String tool, String reason) {
            return new BoundaryFailure(moduleId, new RuntimeBoundaryError.Mcp(
                    new McpBoundaryError.ToolCallFailed(moduleId, tool, reason)));
        }

        @Override
        void onEnd(ChildExit how) {
            if (how.requestedByRuntime()) {
                inFlight.forEach((call, tool) -> call.completeExceptionally(failed(tool, "the connection was closed")));
                return;
            }
            String reason = "the server process died (exit code " + how.exitCode().orElse(-1) + ", stderr: "
                    + how.stderrTail() + ")";
            inFlight.forEach((call, tool) -> call.completeExceptionally(new BoundaryFailure(moduleId,
                    new RuntimeBoundaryError.Mcp(new McpBoundaryError.ToolCallFailed(moduleId, tool, reason)),
                    how.exitCode(), how.stderrTail(), null)));
        }
    }

    /** Builds a {@link FakeMcpModule}. Not thread-safe. */
    public static final class Builder {
        private final String moduleId;
        private final Map<String, FakeTool> tools = new LinkedHashMap<>();
        private final Map<String, Duration> delays = new LinkedHashMap<>();

        private Builder(String moduleId) {
            this.moduleId = moduleId;
        }

        /** Adds a tool (listed in registration order). */
        public Builder tool(String name, FakeTool tool) {
            tools.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(tool, "tool"));
            return this;
        }

        /** Every call of {@code tool} waits {@code delay} first; longer than the caller's timeout, it times out. */
        public Builder delay(String tool, Duration delay) {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("delay must not be negative: " + delay);
            }
            delays.put(Objects.requireNonNull(tool, "tool"), delay);
            return this;
        }

        public FakeMcpModule build() {
            return new FakeMcpModule(this);
        }
    }
}
