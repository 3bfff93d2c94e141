package org.metaruntime.gateway.internal.serve;

import java.util.Set;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.spi.CallOutcome;

/**
 * Stage 4: whether one of the principal's profiles allows the tool; the first that does is the call's profile. A
 * call no profile allows is answered exactly like an unknown tool and recorded as denied.
 */
final class Authorize implements CallStage {

    private final Access access;
    private final ToolTable table;

    Authorize(Access access, ToolTable table) {
        this.access = access;
        this.table = table;
    }

    @Override
    public void run(PipelineCall call) {
        String allowing = access.allowing(call.profiles, call.route.outward(), tagsOf(table, call.route.pod())).orElse(null);
        if (allowing == null) {
            call.profile = call.profiles.isEmpty() ? null : call.profiles.get(0);
            call.refusal = CallOutcome.DENIED;
            throw ResolveTool.unknownTool(call.name);
        }
        call.profile = allowing;
    }

    /** The tags of the pod {@code pod} (none for the gateway's own tool). */
    static Set<String> tagsOf(ToolTable table, String pod) {
        return table.catalog().pod(pod).map(PodManifest::tags).orElse(Set.of());
    }
}
