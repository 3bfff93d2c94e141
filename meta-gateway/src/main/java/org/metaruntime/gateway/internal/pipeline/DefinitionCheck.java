package org.metaruntime.gateway.internal.pipeline;

import java.util.Optional;
import org.metaruntime.gateway.internal.rpc.RpcException;

/** Whether a tool's live definition may be served: the definition-pin part of the pipeline's check stage. */
@FunctionalInterface
public interface DefinitionCheck {

    /** Every tool served. */
    DefinitionCheck NONE = (pod, podTool) -> Optional.empty();

    /** Empty when {@code pod}'s tool {@code podTool} may be called; else the error (-31002) its caller gets. */
    Optional<RpcException> check(String pod, String podTool);

    /** The live definition hash of {@code pod}'s tool {@code podTool}, once the pod listed it (empty when unknown). */
    default Optional<String> liveHash(String pod, String podTool) {
        return Optional.empty();
    }
}
