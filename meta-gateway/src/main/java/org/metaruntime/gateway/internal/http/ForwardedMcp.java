package org.metaruntime.gateway.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.metaruntime.gateway.internal.cluster.ClusterKey;
import org.metaruntime.gateway.internal.cluster.Forwarder;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.supervisor.internal.Failures;

/**
 * {@link Forwarder#PATH}: a client's request another replica of the cluster forwarded here (a retry whose call runs
 * here, a cancellation). Refused with 403 unless it carries a valid, fresh HMAC of the cluster key over its method,
 * path, timestamp and body; then served as {@code /mcp} serves a POST, under the client's own credential, and never
 * forwarded again. 404 outside a cluster. Thread-safe.
 */
final class ForwardedMcp extends Handler.Abstract.NonBlocking {

    private final StreamableHttp mcp;
    private final long maxRequestBytes;
    private volatile Forwarder forwarder;

    ForwardedMcp(StreamableHttp mcp, long maxRequestBytes) {
        this.mcp = mcp;
        this.maxRequestBytes = maxRequestBytes;
    }

    void forwardWith(Forwarder forwarder) {
        this.forwarder = forwarder;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Forwarder cluster = forwarder;
        if (cluster == null) {
            Exchanges.rpcError(response, callback, 404, null, JsonRpc.INVALID_REQUEST, "this gateway is not a replica of a cluster");
            return true;
        }
        if (!HttpMethod.POST.is(request.getMethod())) {
            Exchanges.rpcError(response, callback, 405, null, JsonRpc.INVALID_REQUEST, Forwarder.PATH + " answers POST");
            return true;
        }
        Exchanges.body(request, maxRequestBytes).whenComplete((body, failure) -> {
            if (failure != null) {
                callback.failed(Failures.unwrap(failure));
                return;
            }
            if (!cluster.verify(request.getMethod(), request.getHttpURI().getPath(),
                    request.getHeaders().get(ClusterKey.TIMESTAMP_HEADER), request.getHeaders().get(ClusterKey.SIGNATURE_HEADER), body)) {
                Exchanges.rpcError(response, callback, 403, null, JsonRpc.INVALID_REQUEST,
                        "replica-to-replica requests carry a valid, fresh signature of the cluster key");
                return;
            }
            JsonNode message;
            try {
                message = JsonRpc.MAPPER.readTree(body);
            } catch (IOException e) {
                Exchanges.rpcError(response, callback, 400, null, JsonRpc.PARSE_ERROR, "the body is not JSON");
                return;
            }
            if (message == null || !message.isObject()) {
                Exchanges.rpcError(response, callback, 400, null, JsonRpc.INVALID_REQUEST, "a message is a JSON object");
                return;
            }
            mcp.onMessage(request, response, callback, message, true);
        });
        return true;
    }
}
