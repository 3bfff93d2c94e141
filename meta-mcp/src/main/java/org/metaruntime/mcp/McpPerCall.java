package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.HandleFuture;

/**
 * The {@link McpSessionMode#PER_CALL} boundary: every call spawns the server, runs {@code initialize},
 * {@code tools/list} and {@code tools/call}, and closes with {@link McpClientOptions#perCallStopLadder()} (the
 * call is done, so the server gets a short grace to exit on stdin EOF before SIGTERM). Each of the four steps is
 * bounded by the call's timeout. Stateless and thread-safe.
 *
 * <p>Errors: spawn or {@code initialize} failure is {@code ConnectionFailed} (or {@code Timeout("connect")})
 * and close is not reported; otherwise the step's outcome is composed with the close's: ok+ok gives the
 * result, ok+close error the close error, error+ok the error, error+error {@code OperationFailedWithCloseFailure}.
 * {@link McpToolCall#cancel()} cancels the call in flight on the wire, fails the call with {@code Cancelled} at
 * once and stops the server.
 *
 * <pre>{@code
 * JsonNode payload = McpPerCall.call(spec, "echo", args, Duration.ofSeconds(10), McpClientOptions.defaults());
 * McpToolCall call = McpPerCall.start(spec, "render", args, McpCallOptions.of(Duration.ofMinutes(1)), options);
 * }</pre>
 */
public final class McpPerCall {

    private McpPerCall() {
    }

    /**
     * Runs one call on a fresh server process and returns its payload.
     *
     * @param tool    the tool name (the routed request's method)
     * @param params  the tool's arguments (a JSON object, or null for none)
     * @param timeout bounds each step; must be positive
     * @throws McpBoundaryException as described on the class; {@code Interrupted} when the calling thread is
     *                              interrupted (the server is then stopped)
     */
    public static JsonNode call(ProcessSpec spec, String tool, JsonNode params, Duration timeout, McpClientOptions options) {
        McpToolCall call = start(spec, tool, params, McpCallOptions.of(Waits.validated(timeout)), options);
        try {
            return call.payload().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call.cancel();
            throw new McpBoundaryException(new McpBoundaryError.Interrupted(spec.moduleId(), "call_tool:" + tool));
        } catch (ExecutionException e) {
            throw Waits.rethrow(e);
        }
    }

    /**
     * Starts one call on a fresh server process and returns its handle at once (the spawn happens on the calling
     * thread; a spawn failure fails the handle's futures).
     */
    public static McpToolCall start(ProcessSpec spec, String tool, JsonNode arguments, McpCallOptions call,
                                    McpClientOptions options) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(options, "options");
        PerCallRun run = new PerCallRun(spec.moduleId(), tool, call, options);
        run.start(spec, arguments);
        return run;
    }

    /** The close composition: the step's error, the close error, or both. */
    static McpBoundaryError compose(McpBoundaryError primary, McpBoundaryError close) {
        if (primary == null) {
            return close;
        }
        if (close == null) {
            return primary;
        }
        return new McpBoundaryError.OperationFailedWithCloseFailure(primary, close);
    }

    /** One per-call run: open, list, call, close, as a handle. */
    private static final class PerCallRun implements McpToolCall {
        private final String moduleId;
        private final String tool;
        private final McpCallOptions call;
        private final McpClientOptions options;
        private final HandleFuture<McpSchema.CallToolResult> result = new HandleFuture<>(this::cancel);
        private final HandleFuture<JsonNode> payload = new HandleFuture<>(this::cancel);
        private final CompletableFuture<Void> finished = new CompletableFuture<>();
        private McpConnection connection; // guarded by this
        private McpToolCall inner; // guarded by this
        private boolean cancelled; // guarded by this

        PerCallRun(String moduleId, String tool, McpCallOptions call, McpClientOptions options) {
            this.moduleId = moduleId;
            this.tool = tool;
            this.call = call;
            this.options = options;
        }

        void start(ProcessSpec spec, JsonNode arguments) {
            Duration timeout = call.timeout();
            McpConnection.openAsync(spec, options, timeout, Scheduler.shared()).whenComplete((c, openError) -> {
                if (openError != null) {
                    fail(Failures.unwrap(openError));
                    finished.complete(null);
                    return;
                }
                synchronized (this) {
                    connection = c;
                    if (cancelled) {
                        c.closeAsync(timeout, StopLadder.immediate()).whenComplete((closeError, e) -> finished.complete(null));
                        return;
                    }
                }
                c.listToolsAsync(timeout).whenComplete((names, listError) -> {
                    if (listError != null) {
                        closeThen(c, Failures.unwrap(listError), Failures.unwrap(listError));
                    } else if (!names.contains(tool)) {
                        McpBoundaryException missing = new McpBoundaryException(
                                new McpBoundaryError.ToolNotFound(moduleId, tool, names));
                        closeThen(c, missing, missing);
                    } else {
                        McpToolCall started = c.startCall(tool, arguments, call);
                        synchronized (this) {
                            inner = started;
                            if (cancelled) {
                                started.cancel();
                            }
                        }
                        started.result().whenComplete((r, e) -> started.payload().whenComplete((p, pe) ->
                                closeThen(c, r, e == null ? null : Failures.unwrap(e), p,
                                        pe == null ? null : Failures.unwrap(pe))));
                    }
                });
            });
        }

        private void closeThen(McpConnection c, Throwable resultError, Throwable payloadError) {
            closeThen(c, null, resultError, null, payloadError);
        }

        /** Closes the server, then completes both futures with the step's outcome composed with the close's. */
        private void closeThen(McpConnection c, McpSchema.CallToolResult r, Throwable resultError, JsonNode p,
                               Throwable payloadError) {
            c.closeAsync(call.timeout(), options.perCallStopLadder()).whenComplete((closeError, e) -> {
                complete(result, r, resultError, closeError);
                complete(payload, p, payloadError, closeError);
                finished.complete(null);
            });
        }

        private static <T> void complete(CompletableFuture<T> future, T value, Throwable error, McpBoundaryError close) {
            if (error == null && close == null) {
                future.complete(value);
            } else if (error instanceof McpBoundaryException || error == null) {
                McpBoundaryException primary = (McpBoundaryException) error;
                McpBoundaryError composed = compose(primary == null ? null : primary.error(), close);
                future.completeExceptionally(primary != null && composed == primary.error() ? primary
                        : new McpBoundaryException(composed, primary, primary == null
                        ? java.util.OptionalInt.empty() : primary.exitCode(), primary == null ? "" : primary.stderrTail()));
            } else {
                future.completeExceptionally(error);
            }
        }

        private void fail(Throwable error) {
            result.completeExceptionally(error);
            payload.completeExceptionally(error);
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
            McpConnection c;
            McpToolCall started;
            synchronized (this) {
                if (cancelled || (result.isDone() && payload.isDone())) {
                    return;
                }
                cancelled = true;
                c = connection;
                started = inner;
            }
            fail(new McpBoundaryException(new McpBoundaryError.Cancelled(moduleId, tool)));
            if (started != null) {
                started.cancel();
            }
            if (c != null) {
                c.closeAsync(call.timeout(), options.perCallStopLadder())
                        .whenComplete((closeError, e) -> finished.complete(null));
            }
        }

        @Override
        public CompletableFuture<Void> finished() {
            return finished;
        }
    }
}
