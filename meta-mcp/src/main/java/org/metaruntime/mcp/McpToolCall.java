package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.supervisor.InFlight;

/**
 * One started {@code tools/call}: its outcome as futures, and {@link #cancel()} (the runtime's one handle shape,
 * {@link InFlight}). Thread-safe.
 *
 * <p>{@link #result()} completes with the whole result as the server sent it (a result with {@code isError: true}
 * is a value there); {@link #payload()} with its projected payload (see {@link McpConnection#callTool}), failing
 * with {@link McpBoundaryError.ToolReturnedError} on {@code isError: true}. Both fail with a
 * {@link McpBoundaryException} otherwise. They complete on the module's stdout thread or the shared timer thread:
 * dependent stages must not block.
 *
 * <p>{@link #cancel()} is idempotent and never blocks. A call in flight is cancelled on the wire
 * ({@code notifications/cancelled} with its request id), its in-flight slot is freed at once and a late answer is
 * dropped; a queued call is removed and never sent; a per-call server is stopped. The futures then fail with
 * {@link McpBoundaryError.Cancelled}. Cancelling a completed call does nothing. Cancelling either future
 * ({@code future.cancel(true)}) cancels the call the same way (that future itself completes with a
 * {@link java.util.concurrent.CancellationException}, as any {@link CompletableFuture} does).
 *
 * <pre>{@code
 * McpToolCall call = connection.startCall("render", arguments, McpCallOptions.of(Duration.ofMinutes(2)));
 * call.payload().thenAccept(this::show);
 * cancelButton.onClick(call::cancel);
 * }</pre>
 */
public interface McpToolCall extends InFlight<McpSchema.CallToolResult> {

    /** The module the call goes to. */
    String moduleId();

    /** The tool called. */
    String tool();

    /** The whole result; {@code isError: true} is a value here. */
    @Override
    CompletableFuture<McpSchema.CallToolResult> result();

    /**
     * The whole result as the JSON the server sent (a bare server's answer wrapped as in {@link #result()}), checked
     * to be an object whose {@code content} is an array; fails as {@link #result()} does. For a caller that passes
     * the result on as JSON, this saves converting it to the SDK's record and back.
     */
    default CompletableFuture<JsonNode> resultJson() {
        return result().thenApply(r -> org.metaruntime.mcp.internal.Json.MAPPER.valueToTree(r));
    }

    /** The projected payload; {@code isError: true} fails with {@link McpBoundaryError.ToolReturnedError}. */
    CompletableFuture<JsonNode> payload();

    /**
     * {@inheritDoc} For a {@code PER_CALL} call, once its server has been stopped; otherwise with {@link #result()}.
     */
    @Override
    default CompletableFuture<Void> finished() {
        return InFlight.super.finished();
    }
}
