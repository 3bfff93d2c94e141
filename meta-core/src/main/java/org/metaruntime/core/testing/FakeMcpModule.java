package org.metaruntime.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.internal.BoundaryFailure;
import org.metaruntime.core.internal.CallSpec;
import org.metaruntime.core.internal.InProcessBoundaries;
import org.metaruntime.core.internal.McpBoundary;
import org.metaruntime.core.internal.McpChild;
import org.metaruntime.core.internal.ModuleBoundary;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.InFlight;

/**
 * A fake MCP module whose tools are Java lambdas. The runtime connects to it (the startup probe lists its tools in
 * registration order), calls its tools in {@code PERSISTENT} or {@code PER_CALL} mode, serves it through
 * {@code runtime.mcp(id)}, and supervises its "connection" like a real child's.
 *
 * <pre>{@code
 * FakeMcpModule router = FakeMcpModule.builder("router")
 *         .tool("routing.resolve", args -> mapper.createObjectNode().put("route_id", "r-1"))
 *         .tool("slow", args -> { Thread.sleep(50); return args; })
 *         .tool("copy", (args, call) -> { call.progress(1, 1.0, "copied"); return TextNode.valueOf("done"); })
 *         .build();
 * router.failNextConnects(1, new McpBoundaryError.ConnectionFailed("router", "refused"));
 * router.crash(1, "segfault");      // in-flight calls fail at once, the supervisor restarts the module
 * }</pre>
 *
 * <p>Its calls behave as a real server's do, with the same errors: the payload of a tool (a JSON object is the
 * result's {@code structuredContent}, anything else its text), {@code ToolReturnedError} with the whole
 * {@code isError} result when a tool throws, {@code ToolNotFound} with the tools in registration order,
 * {@code Timeout}, {@code Cancelled} (the tool's thread is interrupted), progress in order before the answer,
 * server notifications, and {@code ToolCallFailed} with the exit code and stderr tail for the calls in flight when it
 * crashes. It offers tools only: resources, prompts and completion are refused with JSON-RPC error -32601, as by a
 * server without them.
 *
 * <p>Thread-safe.
 */
public final class FakeMcpModule implements FakeModule {

    static {
        InProcessBoundaries.register(FakeMcpModule.class, FakeMcpModule::boundary);
    }

    private final String moduleId;
    private final Map<String, FakeTool.WithContext> tools;
    private final ScriptedFailures<McpBoundaryError> connectFailures = new ScriptedFailures<>();
    private final AtomicInteger connects = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();
    private final FakeChildren children = new FakeChildren();

    private FakeMcpModule(Builder b) {
        this.moduleId = b.moduleId;
        Map<String, FakeTool.WithContext> counted = new LinkedHashMap<>();
        b.tools.forEach((name, tool) -> counted.put(name, counted(tool, b.delays.getOrDefault(name, Duration.ZERO))));
        this.tools = java.util.Collections.unmodifiableMap(counted);
    }

    /** {@code tool}, waiting {@code delay} first, counted in {@link #callCount()} when it runs. */
    private FakeTool.WithContext counted(FakeTool.WithContext tool, Duration delay) {
        return (arguments, call) -> {
            if (!delay.isZero()) {
                Thread.sleep(delay.toMillis());
            }
            calls.incrementAndGet();
            return tool.call(arguments, call);
        };
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
        connectFailures.add(count, Objects.requireNonNull(error, "error"));
        return this;
    }

    /** Ends every open connection as if the server exited with {@code exitCode}; its in-flight calls fail at once. */
    public void crash(int exitCode, String stderrTail) {
        children.crashAll(exitCode, Objects.requireNonNull(stderrTail, "stderrTail"));
    }

    /**
     * The server sends a notification ({@code notifications/tools/list_changed}, {@code notifications/message}...)
     * on every open connection: {@code runtime.mcp(id).subscribeNotifications} listeners get it, on this thread.
     */
    public void notify(String method, JsonNode params) {
        Objects.requireNonNull(method, "method");
        children.forEach(child -> ((FakeMcpConnection) child).notifyListeners(method, params));
    }

    /** How many connections were opened (including failed attempts). */
    public int connectCount() {
        return connects.get();
    }

    /** How many tool calls reached a tool (after its delay, if any). */
    public int callCount() {
        return calls.get();
    }

    /** How many connections are open. */
    public int openConnections() {
        return children.live();
    }

    private FakeMcpConnection connect(Executor executor) {
        connects.incrementAndGet();
        McpBoundaryError failure = connectFailures.poll();
        if (failure != null) {
            throw new BoundaryFailure(moduleId, new RuntimeBoundaryError.Mcp(failure));
        }
        FakeMcpConnection connection = new FakeMcpConnection(children, moduleId, tools, executor);
        children.add(connection);
        return connection;
    }

    private ModuleBoundary boundary(Executor executor) {
        Objects.requireNonNull(executor, "executor");
        return new McpBoundary() {
            @Override
            public McpChild start(Duration timeout) {
                return connect(executor);
            }

            @Override
            public InFlight<JsonNode> callOnce(String tool, JsonNode arguments, CallSpec call, Executor callExecutor) {
                FakeMcpConnection connection;
                try {
                    connection = connect(executor);
                } catch (BoundaryFailure e) {
                    return InFlight.failed(e);
                }
                InFlight<JsonNode> started = connection.call(tool, arguments, call);
                started.result().whenComplete((value, error) -> connection.stop(null));
                return InFlight.of(started.result(), () -> {
                    started.cancel();
                    connection.stop(null);
                });
            }
        };
    }

    /** Builds a {@link FakeMcpModule}. Not thread-safe. */
    public static final class Builder {
        private final String moduleId;
        private final Map<String, FakeTool.WithContext> tools = new LinkedHashMap<>();
        private final Map<String, Duration> delays = new LinkedHashMap<>();

        private Builder(String moduleId) {
            this.moduleId = moduleId;
        }

        /** Adds a tool (listed in registration order). */
        public Builder tool(String name, FakeTool tool) {
            Objects.requireNonNull(tool, "tool");
            return tool(name, (arguments, call) -> tool.call(arguments));
        }

        /** Adds a tool that uses its call: progress, notifications, its end (listed in registration order). */
        public Builder tool(String name, FakeTool.WithContext tool) {
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
