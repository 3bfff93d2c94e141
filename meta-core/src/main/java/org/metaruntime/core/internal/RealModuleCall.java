package org.metaruntime.core.internal;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.core.ModuleCall;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.ModuleRouteResponse;

/** A routed call ({@code UnifiedRuntime.call}): a {@link RoutedCall} answered with the module's response. Thread-safe. */
public final class RealModuleCall extends RoutedCall<ModuleRouteResponse> implements ModuleCall {

    private final ModuleRouteRequest request;

    public RealModuleCall(ModuleRouteRequest request) {
        super(Objects.requireNonNull(request, "request").moduleId());
        this.request = request;
    }

    @Override
    public CompletableFuture<ModuleRouteResponse> response() {
        return result();
    }

    @Override
    public ModuleRouteRequest request() {
        return request;
    }
}
