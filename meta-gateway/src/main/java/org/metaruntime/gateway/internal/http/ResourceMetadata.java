package org.metaruntime.gateway.internal.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/**
 * {@code GET /.well-known/oauth-protected-resource[/mcp]}: the protected resource metadata (RFC 9728) with OAuth, 404
 * without. Needs no credential. Thread-safe.
 */
final class ResourceMetadata extends Handler.Abstract.NonBlocking {

    private volatile String document;

    /** Serves {@code json} from now on. */
    void serve(String json) {
        this.document = json;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String json = document;
        if (json == null) {
            Exchanges.rpcError(response, callback, 404, null, JsonRpc.INVALID_REQUEST, "no OAuth protected resource here");
            return true;
        }
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            Exchanges.rpcError(response, callback, 405, null, JsonRpc.INVALID_REQUEST, "GET only");
            return true;
        }
        Exchanges.json(response, callback, 200, json);
        return true;
    }
}
