package org.metaruntime.core;

import java.util.concurrent.CompletableFuture;
import org.metaruntime.supervisor.InFlight;

/**
 * One call started by {@link UnifiedRuntime#call(ModuleRouteRequest, CallOptions)}: its answer, and a way to cancel
 * it.
 *
 * <pre>{@code
 * ModuleCall call = runtime.call(new ModuleRouteRequest("search", "query", params),
 *         CallOptions.builder().timeout(Duration.ofSeconds(30)).onProgress(p -> bar.set(p.progress())).build());
 * cancelButton.onClick(call::cancel);
 * ModuleRouteResponse response = call.response().join();   // or ModuleRouteException(... Cancelled ...)
 * }</pre>
 *
 * <p>Cancelling an MCP call sends {@code notifications/cancelled} for its request id, frees its in-flight slot and
 * drops a late answer; a call still queued is never sent; an event-line call's process tree is stopped. The
 * response then fails with {@code ModuleRuntime(Mcp(McpBoundaryError.Cancelled))} or
 * {@code ModuleRuntime(Process(ProcessBoundaryError.Cancelled))}. {@code response().cancel(true)} has the same
 * effect (the future itself then ends with a {@link java.util.concurrent.CancellationException}).
 *
 * <p>A call is an {@link InFlight} of its response: {@link #result()} is {@link #response()}, and {@link #finished()}
 * completes once the call's boundary work has ended (its process stopped, its per-call server gone).
 *
 * <p>Thread-safe.
 */
public interface ModuleCall extends InFlight<ModuleRouteResponse> {

    /** Completes with the module's answer, or exceptionally with a {@link ModuleRouteException}. */
    CompletableFuture<ModuleRouteResponse> response();

    /** Cancels the call: idempotent, never blocks; does nothing once the call completed. */
    @Override
    void cancel();

    /** The same future as {@link #response()}. */
    @Override
    default CompletableFuture<ModuleRouteResponse> result() {
        return response();
    }

    /** The request this call carries. */
    ModuleRouteRequest request();
}
