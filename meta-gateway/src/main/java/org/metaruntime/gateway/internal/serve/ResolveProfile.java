package org.metaruntime.gateway.internal.serve;

import org.metaruntime.gateway.internal.pipeline.Access;

/**
 * Stage 2: the principal's profiles, by the policy (none for a pod's call that could belong to calls of several
 * principals). Never stops a call.
 */
final class ResolveProfile implements CallStage {

    private final Access access;

    ResolveProfile(Access access) {
        this.access = access;
    }

    @Override
    public void run(PipelineCall call) {
        call.profiles = call.unknownPrincipal ? java.util.List.of() : access.profilesOf(call.principal);
    }
}
