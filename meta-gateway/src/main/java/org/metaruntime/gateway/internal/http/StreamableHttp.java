package org.metaruntime.gateway.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.metaruntime.gateway.internal.cluster.DatabaseUnreachable;
import org.metaruntime.gateway.internal.cluster.Forwarder;
import org.metaruntime.gateway.internal.cluster.SessionRecord;
import org.metaruntime.gateway.internal.cluster.SharedSessions;
import org.metaruntime.gateway.internal.cluster.TaskIds;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.gateway.internal.trace.IncomingTrace;
import org.metaruntime.gateway.internal.serve.GatewayServer;
import org.metaruntime.gateway.spi.Principal;

/**
 * MCP Streamable HTTP (revision 2025-11-25) at {@code /mcp}: {@code POST} carries one JSON-RPC message (a request
 * is answered as JSON, or as an event stream when something belongs to it before the answer), {@code GET} opens
 * the server's stream, {@code DELETE} ends the session. {@code initialize} opens a session and answers its id in
 * {@code Mcp-Session-Id}; every later request carries it. In a cluster the session is written to the shared database
 * before {@code initialize} is answered, a request for a session this replica does not hold loads it (503 with -32603
 * when the database cannot be reached), each request records its use and {@code DELETE} removes it everywhere.
 * Thread-safe.
 */
final class StreamableHttp extends Handler.Abstract.NonBlocking {

    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    /** The error of a request whose call ran on a replica that is gone. */
    static final int OWNER_GONE = -32002;
    private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect", "upgrade",
            "transfer-encoding", "keep-alive", "te", "trailer", "proxy-connection", "http2-settings");

    private final GatewayServer server;
    private final SessionRegistry sessions;
    private final long maxRequestBytes;
    private final ConnectionWatch watches;
    private final boolean authenticated;
    private volatile Forwarder forwarder;

    /**
     * @param authenticated whether callers are authenticated (a bearer token is configured): modern answers that depend
     *                      on the caller are then marked private to it
     */
    StreamableHttp(GatewayServer server, SessionRegistry sessions, long maxRequestBytes, ConnectionWatch watches, boolean authenticated) {
        this.authenticated = authenticated;
        this.server = server;
        this.sessions = sessions;
        this.maxRequestBytes = maxRequestBytes;
        this.watches = watches;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        String version = request.getHeaders().get(VERSION_HEADER);
        if (Eras.MODERN.equals(version) && !HttpMethod.POST.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            Exchanges.rpcError(response, callback, 405, null, JsonRpc.INVALID_REQUEST, Eras.MODERN + " requests are POSTed to /mcp");
            return true;
        }
        if (version != null && !Eras.SUPPORTED.contains(version)) {
            Exchanges.rpcErrorAfterBody(request, response, callback, maxRequestBytes, 400, JsonRpc.INVALID_REQUEST,
                    "unsupported " + VERSION_HEADER + " " + version + " (supported: " + String.join(", ", Eras.SUPPORTED) + ")");
            return true;
        }
        if (HttpMethod.POST.is(method)) {
            post(request, response, callback);
        } else if (HttpMethod.GET.is(method)) {
            get(request, response, callback);
        } else if (HttpMethod.DELETE.is(method)) {
            delete(request, response, callback);
        } else {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, POST, DELETE");
            Exchanges.rpcError(response, callback, 405, null, JsonRpc.INVALID_REQUEST, "/mcp answers GET, POST and DELETE");
        }
        return true;
    }

    private void post(Request request, Response response, Callback callback) {
        if (!Exchanges.isJson(request)) {
            Exchanges.rpcErrorAfterBody(request, response, callback, maxRequestBytes, 415, JsonRpc.INVALID_REQUEST,
                    "a POST to /mcp carries application/json");
            return;
        }
        Exchanges.readJson(request, response, callback, maxRequestBytes, message -> onMessage(request, response, callback, message, false));
    }

    /** Forwards to the replicas of a cluster ({@code forwarder}); null: a single process. */
    void forwardWith(Forwarder forwarder) {
        this.forwarder = forwarder;
    }

    /**
     * Serves one message POSTed to {@code /mcp}, or forwarded by another replica ({@code forwarded}: it is served
     * here, never forwarded on).
     */
    void onMessage(Request request, Response response, Callback callback, JsonNode received, boolean forwarded) {
        JsonNode message = IncomingTrace.withHttpContext(received, request.getHeaders()::get);
        JsonNode id = message.get("id");
        boolean isRequest = message.has("method") && id != null && !id.isNull();
        if (isRequest && !id.isTextual() && !id.isIntegralNumber()) {
            Exchanges.rpcError(response, callback, 400, null, JsonRpc.INVALID_REQUEST, "id must be a string or an integer");
            return;
        }
        if (Eras.MODERN.equals(request.getHeaders().get(VERSION_HEADER))
                || Eras.isModern(message.path("method").asText(null), message.get("params"))) {
            if (isRequest) {
                Forwarder cluster = forwarder;
                if (cluster != null && !forwarded) {
                    Optional<String> owner = owner(message);
                    if (owner.isPresent() && !owner.get().equals(cluster.self())) {
                        forward(cluster, owner.get(), request, response, callback, message);
                        return;
                    }
                }
                modern(request, response, callback, message);
            } else {
                Exchanges.empty(response, callback, 202);
            }
            return;
        }
        String sessionId = request.getHeaders().get(SESSION_HEADER);
        StreamableSession session;
        if (isRequest && "initialize".equals(message.path("method").asText())) {
            if (sessionId != null) {
                Exchanges.rpcError(response, callback, 400, id, JsonRpc.INVALID_REQUEST,
                        "initialize opens a new session: send it without " + SESSION_HEADER);
                return;
            }
            session = new StreamableSession(sessions.newId(), server, AccessCheck.caller(request), sessions::callEnded);
            if (!sessions.add(session)) {
                session.close("refused");
                Exchanges.rpcError(response, callback, 503, id, JsonRpc.INTERNAL_ERROR, sessions.accepting()
                        ? "too many sessions (at most " + SessionRegistry.MAX_SESSIONS + ")" : "the gateway is stopping");
                return;
            }
            SharedSessions store = sessions.shared();
            if (store != null) {
                session.recordAtInitialize(id, store);
            }
        } else {
            session = find(request, sessionId, response, callback, id);
            if (session == null) {
                return;
            }
        }
        response.getHeaders().put(SESSION_HEADER, session.id());
        session.entered();
        try {
            if (!isRequest) {
                boolean elsewhere = !forwarded && forwarder != null && isCancellation(message)
                        && !session.inFlight(message.path("params").get("requestId"));
                session.dispatch(server.dispatcher(), message);
                if (elsewhere) {
                    tellOthers(forwarder, request, message);
                }
                Exchanges.empty(response, callback, 202);
                return;
            }
            PostExchange[] self = new PostExchange[1];
            PostExchange exchange = new PostExchange(request, response, callback, server.nanoClock(),
                    cause -> session.broken(id, self[0], cause));
            self[0] = exchange;
            if (!session.expect(id, exchange)) {
                Exchanges.rpcError(response, callback, 400, id, JsonRpc.INVALID_REQUEST, "request " + id + " is in flight already");
                return;
            }
            exchange.watch(watches);
            session.dispatch(server.dispatcher(), message);
            if (session.unrecorded()) {
                sessions.remove(session);
                session.close(DatabaseUnreachable.MESSAGE);
            } else if ("logging/setLevel".equals(message.path("method").asText()) && sessions.shared() != null) {
                try {
                    sessions.shared().logLevel(session.id(), session.client().logLevel().wire());
                } catch (DatabaseUnreachable e) {
                    // this replica keeps the level; another one loading the session starts from the recorded one
                }
            }
        } finally {
            session.left();
        }
    }

    /**
     * A modern request: its headers checked against its body (-32020), then its version (-32022), its {@code _meta}
     * (-32602), each 400, and its method (404); then served without a session, answered on its own POST.
     */
    private void modern(Request request, Response response, Callback callback, JsonNode message) {
        JsonNode id = message.get("id");
        String method = message.path("method").asText("");
        try {
            ModernHeaders.check(request.getHeaders(), message, server::toolInputSchema);
            Eras.check(message.get("params"));
        } catch (RpcException refused) {
            Exchanges.json(response, callback, 400, JsonRpc.write(JsonRpc.error(id, refused.code(), refused.getMessage(), refused.data())));
            return;
        }
        if (!server.dispatcher().servesModern(method)) {
            Exchanges.json(response, callback, 404, JsonRpc.write(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND,
                    "method " + method + " is not served to " + Eras.MODERN + " requests", null)));
            return;
        }
        ModernPost[] self = new ModernPost[1];
        ModernPost post = new ModernPost(id, server.dispatcher(), authenticated, AccessCheck.caller(request), () -> sessions.removeModern(self[0]));
        self[0] = post;
        if (!sessions.addModern(post)) {
            Exchanges.rpcError(response, callback, 503, id, JsonRpc.INTERNAL_ERROR, "the gateway is stopping");
            return;
        }
        post.serve(new PostExchange(request, response, callback, server.nanoClock(), post::broken), watches, message);
    }

    private void get(Request request, Response response, Callback callback) {
        if (!Exchanges.accepts(request, "text/event-stream")) {
            Exchanges.rpcError(response, callback, 406, null, JsonRpc.INVALID_REQUEST, "GET /mcp opens an event stream: Accept text/event-stream");
            return;
        }
        StreamableSession session = find(request, request.getHeaders().get(SESSION_HEADER), response, callback, null);
        if (session == null) {
            return;
        }
        if (session.hasStream()) {
            Exchanges.rpcError(response, callback, 409, null, JsonRpc.INVALID_REQUEST, "session " + session.id()
                    + " has a GET stream open already");
            return;
        }
        response.getHeaders().put(SESSION_HEADER, session.id());
        AtomicReference<SseStream> self = new AtomicReference<>();
        ConnectionWatch.Watch watch = watches.watch(request, closed -> abort(self.get(), closed));
        SseStream stream = new SseStream(response, callback, server.nanoClock(), failure -> {
            watch.end();
            session.detach(self.get());
        });
        self.set(stream);
        if (!session.attach(stream)) {
            stream.abort(new IllegalStateException("a second GET stream"));
            return;
        }
        request.addIdleTimeoutListener(timeout -> stream.ended());
        stream.comment();
    }

    private void delete(Request request, Response response, Callback callback) {
        StreamableSession session = find(request, request.getHeaders().get(SESSION_HEADER), response, callback, null);
        if (session == null) {
            return;
        }
        SharedSessions store = sessions.shared();
        if (store != null) {
            try {
                store.delete(session.id());
            } catch (DatabaseUnreachable e) {
                Exchanges.rpcError(response, callback, 503, null, JsonRpc.INTERNAL_ERROR, DatabaseUnreachable.MESSAGE);
                return;
            }
        }
        sessions.remove(session);
        session.close("the client ended the session");
        Exchanges.empty(response, callback, 200);
    }

    /**
     * The replica that owns what the modern request {@code message} is about: the issuer of its {@code requestState},
     * the replica named by the task id of {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel}.
     */
    private Optional<String> owner(JsonNode message) {
        JsonNode params = message.path("params");
        switch (message.path("method").asText("")) {
            case "tasks/get":
                // the gateway's own tasks are read from the shared database, on any replica
                return TaskIds.gatewayMade(params.path("taskId").asText(null)) ? Optional.empty()
                        : TaskIds.owner(params.path("taskId").asText(null));
            case "tasks/update", "tasks/cancel":
                return TaskIds.owner(params.path("taskId").asText(null));
            default:
                return server.requestStateOwner(params.get("requestState"));
        }
    }

    private static boolean isCancellation(JsonNode message) {
        return "notifications/cancelled".equals(message.path("method").asText());
    }

    /** The headers of the client's request that go along when it is forwarded. */
    static Map<String, String> forwardedHeaders(Request request) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (HttpField field : request.getHeaders()) {
            String name = field.getName().toLowerCase(Locale.ROOT);
            if (!NOT_FORWARDED.contains(name) && !name.startsWith("x-meta-cluster-")) {
                headers.merge(field.getName(), field.getValue(), (a, b) -> a + ", " + b);
            }
        }
        return headers;
    }

    /**
     * A modern retry whose {@code requestState} another replica owns: forwarded there and its answer passed back; when
     * the owner is gone, -32002 naming it (the client re-issues the original call).
     */
    private void forward(Forwarder cluster, String owner, Request request, Response response, Callback callback, JsonNode message) {
        byte[] body = JsonRpc.write(message).getBytes(StandardCharsets.UTF_8);
        cluster.forward(owner, body, forwardedHeaders(request)).whenComplete((answer, failure) -> {
            if (failure != null || answer.isEmpty()) {
                Exchanges.json(response, callback, 200, JsonRpc.write(JsonRpc.error(message.get("id"), OWNER_GONE,
                        "the replica " + owner + " that runs this call is gone" + (message.path("method").asText("").startsWith("tasks/")
                                ? ": its task is lost" : ": re-issue the original call"),
                        JsonRpc.NODES.objectNode().put("replica", owner))));
                return;
            }
            HttpResponse<byte[]> got = answer.get();
            response.setStatus(got.statusCode());
            got.headers().firstValue("Content-Type").ifPresent(type -> response.getHeaders().put(HttpHeader.CONTENT_TYPE, type));
            got.headers().firstValue(SESSION_HEADER).ifPresent(id -> response.getHeaders().put(SESSION_HEADER, id));
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, got.body().length);
            response.write(true, ByteBuffer.wrap(got.body()), callback);
        });
    }

    /** A legacy client's cancellation of a call running on another replica: every other replica is told. */
    private static void tellOthers(Forwarder cluster, Request request, JsonNode message) {
        byte[] body = JsonRpc.write(message).getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = forwardedHeaders(request);
        for (String other : cluster.others()) {
            cluster.forward(other, body, headers);
        }
    }

    /** Ends {@code stream} (if there is one yet) as failed by {@code cause}. */
    static void abort(SseStream stream, Throwable cause) {
        if (stream != null) {
            stream.abort(cause);
        }
    }

    /** The open session {@code sessionId} of the request's principal; else answers 400 (none given) or 404. */
    private StreamableSession find(Request request, String sessionId, Response response, Callback callback, JsonNode id) {
        if (sessionId == null) {
            Exchanges.rpcError(response, callback, 400, id, JsonRpc.INVALID_REQUEST, "missing " + SESSION_HEADER
                    + " (initialize first)");
            return null;
        }
        HttpSession found = sessions.get(sessionId);
        SharedSessions store = sessions.shared();
        if (found == null && store != null) {
            try {
                found = load(store, sessionId, AccessCheck.caller(request));
            } catch (DatabaseUnreachable e) {
                Exchanges.rpcError(response, callback, 503, id, JsonRpc.INTERNAL_ERROR, DatabaseUnreachable.MESSAGE);
                return null;
            }
        } else if (found instanceof StreamableSession held && store != null && held.owner().sameAs(AccessCheck.caller(request))) {
            try {
                if (!store.touch(sessionId)) {
                    sessions.remove(held);
                    held.close("the session ended on another replica or expired");
                    found = null;
                }
            } catch (DatabaseUnreachable e) {
                // a session held here is served while the database is away
            }
        }
        if (!(found instanceof StreamableSession session) || session.isClosed() || !session.owner().sameAs(AccessCheck.caller(request))) {
            Exchanges.rpcError(response, callback, 404, id, JsonRpc.INVALID_REQUEST, "unknown or expired session " + sessionId
                    + ": initialize again");
            return null;
        }
        return session;
    }

    /** The shared session {@code sessionId} of {@code caller}, loaded and held from now on; null when there is none. */
    private HttpSession load(SharedSessions store, String sessionId, Principal caller) {
        Optional<SessionRecord> record = store.load(sessionId);
        if (record.isEmpty() || !caller.name().equals(record.get().principalName())
                || !caller.auth().equals(record.get().principalAuth())) {
            return null;
        }
        StreamableSession loaded = StreamableSession.restored(record.get(), server, caller, sessions::callEnded);
        HttpSession held = sessions.adopt(loaded);
        if (held != loaded) {
            loaded.close("loaded twice");
        }
        if (held == loaded) {
            store.touch(sessionId);
        }
        return held;
    }
}
