package org.metaruntime.gateway.internal.http;

import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.trace.IncomingTrace;
import org.metaruntime.gateway.internal.serve.GatewayServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP+SSE transport of MCP 2024-11-05, for older clients: {@code GET /sse} opens a session's event stream
 * (its first event, {@code endpoint}, names {@code /message?sessionId=...}); each {@code POST /message} carries one
 * JSON-RPC message, answered 202, its answer going on the stream. Thread-safe.
 */
final class LegacySse extends Handler.Abstract.NonBlocking {

    private static final Logger log = LoggerFactory.getLogger(LegacySse.class);

    private final GatewayServer server;
    private final SessionRegistry sessions;
    private final long maxRequestBytes;
    private final ConnectionWatch watches;

    LegacySse(GatewayServer server, SessionRegistry sessions, long maxRequestBytes, ConnectionWatch watches) {
        this.server = server;
        this.sessions = sessions;
        this.maxRequestBytes = maxRequestBytes;
        this.watches = watches;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (path.equals("/sse") && HttpMethod.GET.is(request.getMethod())) {
            open(request, response, callback);
        } else if (path.equals("/message") && HttpMethod.POST.is(request.getMethod())) {
            post(request, response, callback);
        } else {
            Exchanges.rpcError(response, callback, 405, null, JsonRpc.INVALID_REQUEST, "GET /sse opens a session, POST /message sends to it");
        }
        return true;
    }

    private void open(Request request, Response response, Callback callback) {
        String id = sessions.newId();
        AtomicReference<SseStream> stream = new AtomicReference<>();
        ConnectionWatch.Watch watch = watches.watch(request, closed -> StreamableHttp.abort(stream.get(), closed));
        LegacySession session = new LegacySession(id, server, AccessCheck.caller(request), self -> new SseStream(response, callback, server.nanoClock(), failure -> {
            watch.end();
            sessions.remove(self);
            if (failure != null) {
                log.info("session {}: its event stream ended ({}); the session ends", id, failure.toString());
            }
            self.close("the event stream ended");
        }));
        stream.set(session.stream());
        if (!sessions.add(session)) {
            session.close("refused");
            return;
        }
        request.addIdleTimeoutListener(timeout -> session.stream().ended());
        session.stream().event("endpoint", "/message?sessionId=" + id);
    }

    private void post(Request request, Response response, Callback callback) {
        Fields query = Request.extractQueryParameters(request);
        String id = query.getValue("sessionId");
        HttpSession found = id == null ? null : sessions.get(id);
        if (!(found instanceof LegacySession session) || session.isClosed() || !session.owner().sameAs(AccessCheck.caller(request))) {
            Exchanges.rpcError(response, callback, 404, null, JsonRpc.INVALID_REQUEST, "unknown or ended session " + id
                    + ": open GET /sse again");
            return;
        }
        if (!Exchanges.isJson(request)) {
            Exchanges.rpcError(response, callback, 415, null, JsonRpc.INVALID_REQUEST, "a POST to /message carries application/json");
            return;
        }
        Exchanges.readJson(request, response, callback, maxRequestBytes, message -> {
            Exchanges.empty(response, callback, 202);
            session.onMessage(IncomingTrace.withHttpContext(message, request.getHeaders()::get));
        });
    }
}
