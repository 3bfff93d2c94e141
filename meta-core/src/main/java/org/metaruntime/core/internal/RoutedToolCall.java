package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.metaruntime.core.ModuleCallListener;
import org.metaruntime.mcp.McpToolCall;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.HandleFuture;

/**
 * A tool call of {@code McpModule.startCall}: a {@link RoutedCall} (the path of every call) answered with the JSON the
 * server sent ({@link #resultJson()}); the SDK's record ({@link #result()}) and the projected payload
 * ({@link #payload()}) are made from the same answer only when asked for. Every failure is a
 * {@code ModuleRouteException}; cancelling any of the futures cancels the call. Thread-safe.
 */
public final class RoutedToolCall implements McpToolCall {

    private final String moduleId;
    private final String tool;
    private final RoutedCall<JsonNode> call;
    private volatile McpToolCall started;
    private CompletableFuture<McpSchema.CallToolResult> result; // guarded by this
    private CompletableFuture<JsonNode> payload; // guarded by this

    RoutedToolCall(String moduleId, String tool) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.tool = Objects.requireNonNull(tool, "tool");
        this.call = new RoutedCall<>(moduleId);
    }

    /** The call's lifecycle. */
    RoutedCall<JsonNode> lifecycle() {
        return call;
    }

    /** Hands the call to the session's own tool call. */
    void attach(McpToolCall toolCall) {
        started = toolCall;
        call.attach(InFlight.of(toolCall.resultJson(), toolCall::cancel, toolCall.finished()), json -> json);
    }

    /** How a call answered with {@code json} ended for the call listener. */
    static ModuleCallListener.Outcome outcome(JsonNode json) {
        return json.path("isError").asBoolean(false) ? ModuleCallListener.Outcome.TOOL_ERROR
                : ModuleCallListener.Outcome.SUCCESS;
    }

    /**
     * Waits for the whole result; an interrupt of the waiting thread cancels the call (and stays set).
     *
     * @throws org.metaruntime.core.ModuleRouteException the call's failure, thrown again from the waiting thread
     */
    McpSchema.CallToolResult await() {
        call.await();
        try {
            return result().join();
        } catch (CompletionException e) {
            throw CallRouter.toRouteException(moduleId, e);
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
    public synchronized CompletableFuture<McpSchema.CallToolResult> result() {
        if (result == null) {
            result = view(McpToolCall::result);
        }
        return result;
    }

    @Override
    public CompletableFuture<JsonNode> resultJson() {
        return call.result();
    }

    @Override
    public synchronized CompletableFuture<JsonNode> payload() {
        if (payload == null) {
            payload = view(McpToolCall::payload);
        }
        return payload;
    }

    @Override
    public void cancel() {
        call.cancel();
    }

    @Override
    public CompletableFuture<Void> finished() {
        return call.finished();
    }

    /** Another form of the answer, made by the session's call once the answer arrived. */
    private <V> CompletableFuture<V> view(Function<McpToolCall, CompletableFuture<V>> of) {
        HandleFuture<V> view = new HandleFuture<>(call::cancel);
        call.result().whenComplete((json, error) -> {
            if (error != null) {
                view.completeExceptionally(Failures.unwrap(error));
                return;
            }
            of.apply(started).whenComplete((value, failure) -> {
                if (failure != null) {
                    view.completeExceptionally(CallRouter.toRouteException(moduleId, failure));
                } else {
                    view.complete(value);
                }
            });
        });
        return view;
    }

    @Override
    public String toString() {
        return "RoutedToolCall[" + moduleId + ", " + tool + (call.result().isDone() ? ", done]" : ", running]");
    }
}
