package org.metaruntime.gateway.internal.serve;

import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;

/**
 * Stage 3: the name of the call to a served tool: the outward name of a client's call, {@code pod.tool} of a pod's
 * call. A name that resolves to no tool is answered {@link #unknownTool}.
 */
final class ResolveTool implements CallStage {

    private final ToolTable table;

    ResolveTool(ToolTable table) {
        this.table = table;
    }

    @Override
    public void run(PipelineCall call) {
        ToolTable.Route route;
        if (call.entry == PipelineCall.Entry.CLIENT) {
            route = table.route(call.name).orElse(null);
        } else {
            int dot = call.name.indexOf('.');
            route = dot <= 0 ? null : table.route(call.name.substring(0, dot), call.name.substring(dot + 1)).orElse(null);
        }
        if (route == null) {
            throw unknownTool(call.name);
        }
        call.route = route;
    }

    /**
     * The answer to a call of a name that resolves to no tool, and to a call the principal may not make: the same,
     * so that it tells nothing of whether the tool exists.
     */
    static RpcException unknownTool(String name) {
        return new RpcException(JsonRpc.INVALID_PARAMS, "unknown tool: " + name, JsonRpc.NODES.objectNode().put("tool", name));
    }
}
