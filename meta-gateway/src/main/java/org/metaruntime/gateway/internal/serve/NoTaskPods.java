package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;

/**
 * The pods as task requests see them while a pod's {@code DiscoverResult} is not reachable through its module:
 * none is task-capable, so every task id is unknown (-32602) and the gateway does not advertise the extension.
 */
final class NoTaskPods implements TaskRequests.Pods {

    @Override
    public boolean taskCapable(String pod) {
        return false;
    }

    @Override
    public CompletableFuture<JsonNode> request(String pod, String method, ObjectNode params, JsonNode clientCapabilities) {
        return CompletableFuture.failedFuture(new RpcException(JsonRpc.INVALID_PARAMS, "pod " + pod + " offers no tasks"));
    }
}
