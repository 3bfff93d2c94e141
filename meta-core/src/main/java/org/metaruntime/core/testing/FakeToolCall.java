package org.metaruntime.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpProgress;
import org.metaruntime.mcp.McpToolCall;
import org.metaruntime.supervisor.internal.HandleFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code tools/call} of a {@link FakeMcpModule}, with a real call's outcome: the whole result and the payload
 * (an {@code isError} result fails the payload with {@code ToolReturnedError}), the timeout (reset by progress when
 * asked), progress before the answer, and a cancel that fails it with {@code Cancelled} and interrupts the tool. The
 * first outcome wins; the futures complete on the tool's thread, the caller's (cancel) or the JDK's delay thread
 * (timeout). Thread-safe.
 */
final class FakeToolCall implements McpToolCall, FakeToolContext {

    private static final Logger LOG = LoggerFactory.getLogger(FakeMcpModule.class);
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final String moduleId;
    private final String tool;
    private final McpCallOptions options;
    private final BiConsumer<String, JsonNode> notifications;
    private final HandleFuture<McpSchema.CallToolResult> result = new HandleFuture<>(this::cancel);
    private final HandleFuture<JsonNode> payload = new HandleFuture<>(this::cancel);
    private final Object lock = new Object();
    private final Object progressLock = new Object();
    private boolean done;
    private Thread runner;
    private boolean interrupted;
    private long deadline;

    FakeToolCall(String moduleId, String tool, McpCallOptions options, BiConsumer<String, JsonNode> notifications) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.tool = Objects.requireNonNull(tool, "tool");
        this.options = Objects.requireNonNull(options, "options");
        this.notifications = Objects.requireNonNull(notifications, "notifications");
    }

    /** Starts the timeout, and runs {@code body} on {@code executor} unless the call already ended. */
    FakeToolCall start(FakeTool.WithContext body, JsonNode arguments, Executor executor) {
        armTimeout();
        try {
            executor.execute(() -> run(body, arguments));
        } catch (RejectedExecutionException e) {
            fail(new McpBoundaryError.ToolCallFailed(moduleId, tool, "the runtime is shutting down"));
        }
        return this;
    }

    private void run(FakeTool.WithContext body, JsonNode arguments) {
        synchronized (lock) {
            if (done) {
                return;
            }
            runner = Thread.currentThread();
        }
        try {
            JsonNode value = body.call(arguments, this);
            succeed(value == null ? NullNode.getInstance() : value);
        } catch (McpBoundaryException e) {
            end(e);
        } catch (InterruptedException e) {
            reportError("interrupted");
        } catch (Exception e) {
            reportError(e.getMessage() != null ? e.getMessage() : e.toString());
        } catch (Error e) {
            fail(new McpBoundaryError.ToolCallFailed(moduleId, tool, "the tool threw " + e));
            throw e;
        } finally {
            synchronized (lock) {
                runner = null;
                if (interrupted) {
                    Thread.interrupted();
                }
            }
        }
    }

    private void armTimeout() {
        long at;
        synchronized (lock) {
            at = ++deadline;
        }
        long timeoutMs = options.timeout().toMillis();
        CompletableFuture.delayedExecutor(timeoutMs, TimeUnit.MILLISECONDS, Runnable::run).execute(() -> {
            synchronized (lock) {
                if (at != deadline) {
                    return;
                }
            }
            fail(new McpBoundaryError.Timeout(moduleId, "call_tool:" + tool, timeoutMs));
        });
    }

    private void succeed(JsonNode value) {
        McpSchema.CallToolResult answer = resultOf(value);
        if (finish()) {
            result.complete(answer);
            payload.complete(value);
        }
    }

    /** The tool reported an error: an {@code isError} result whose text is {@code message}. */
    private void reportError(String message) {
        McpSchema.CallToolResult answer = new McpSchema.CallToolResult(
                List.of(new McpSchema.TextContent(message)), true, null, null);
        if (finish()) {
            result.complete(answer);
            payload.completeExceptionally(new McpBoundaryException(new McpBoundaryError.ToolReturnedError(moduleId, tool, answer)));
        }
    }

    /** Fails the call with {@code error}, unless it already ended. */
    void fail(McpBoundaryError error) {
        end(new McpBoundaryException(error));
    }

    /** Fails the call as its server's end does, with the exit code and stderr tail when the server died. */
    void fail(McpBoundaryError error, OptionalInt exitCode, String stderrTail) {
        end(new McpBoundaryException(error, null, exitCode, stderrTail));
    }

    private void end(McpBoundaryException failure) {
        if (finish()) {
            result.completeExceptionally(failure);
            payload.completeExceptionally(failure);
        }
    }

    /** Marks the call done (the first outcome wins) and interrupts the tool still running for it. */
    private boolean finish() {
        synchronized (lock) {
            if (done) {
                return false;
            }
            done = true;
            deadline++;
            if (runner != null && runner != Thread.currentThread()) {
                interrupted = true;
                runner.interrupt();
            }
            return true;
        }
    }

    @Override
    public String moduleId() {
        return moduleId;
    }

    @Override
    public String tool() {
        return tool;
    }

    @Override
    public CompletableFuture<McpSchema.CallToolResult> result() {
        return result;
    }

    @Override
    public CompletableFuture<JsonNode> payload() {
        return payload;
    }

    @Override
    public void cancel() {
        fail(new McpBoundaryError.Cancelled(moduleId, tool));
    }

    @Override
    public void progress(double progress, Double total, String message) {
        synchronized (progressLock) {
            if (isCancelled()) {
                return;
            }
            options.onProgress().ifPresent(listener -> {
                try {
                    listener.accept(new McpProgress(progress, total, message));
                } catch (RuntimeException e) {
                    LOG.warn("module '{}': a progress listener of a call of tool '{}' failed; it keeps receiving "
                            + "updates", moduleId, tool, e);
                }
            });
        }
        if (options.resetTimeoutOnProgress()) {
            armTimeout();
        }
    }

    @Override
    public void notify(String method, JsonNode params) {
        notifications.accept(Objects.requireNonNull(method, "method"), params);
    }

    @Override
    public boolean isCancelled() {
        synchronized (lock) {
            return done;
        }
    }

    /**
     * The result a server answers with {@code payload}: an object is its {@code structuredContent} (and its text);
     * anything else is a text block that reads back as {@code payload} (a string as itself unless it reads as JSON).
     */
    static McpSchema.CallToolResult resultOf(JsonNode payload) {
        String json = payload.toString();
        if (payload.isObject()) {
            Map<?, ?> structured = MAPPER.convertValue(payload, Map.class);
            return new McpSchema.CallToolResult(List.of(new McpSchema.TextContent(json)), false, structured, null);
        }
        String text = payload.isTextual() && !readsAsJson(payload.textValue()) ? payload.textValue() : json;
        return new McpSchema.CallToolResult(List.of(new McpSchema.TextContent(text)), false, null, null);
    }

    private static boolean readsAsJson(String text) {
        try {
            MAPPER.readTree(text);
            return !text.isBlank();
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
