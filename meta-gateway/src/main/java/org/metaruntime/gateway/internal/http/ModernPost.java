package org.metaruntime.gateway.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicBoolean;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.spi.Principal;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.Outbound;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One modern request over HTTP: no session, a client of its own for the length of its POST. Its notifications
 * (progress, log lines) go on the POST's event stream, its answer ends the POST (status 200, or 400 for -32021). The
 * POST breaking before the answer cancels the request. Never carries a JSON-RPC request to the client. Thread-safe.
 */
final class ModernPost implements Outbound {

    private static final Logger log = LoggerFactory.getLogger(ModernPost.class);

    private final JsonNode requestId;
    private final ClientSession client;
    private final Dispatcher dispatcher;
    private final Runnable onEnd;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile PostExchange exchange;

    /**
     * @param authenticated whether callers are authenticated over this transport
     * @param caller        who sent it
     * @param onEnd         run once when the request ends (answered, cancelled or broken)
     */
    ModernPost(JsonNode requestId, Dispatcher dispatcher, boolean authenticated, Principal caller, Runnable onEnd) {
        this.requestId = requestId;
        this.dispatcher = dispatcher;
        this.onEnd = onEnd;
        this.client = new ClientSession("modern-" + requestId, this, authenticated, caller);
    }

    /** Serves the request {@code message} on {@code exchange}. */
    void serve(PostExchange exchange, ConnectionWatch watches, JsonNode message) {
        this.exchange = exchange;
        exchange.watch(watches);
        dispatcher.onMessage(client, message, true);
    }

    /** The POST broke before the answer: the request is cancelled at the pod and gets no answer. */
    void broken(Throwable cause) {
        log.info("the connection of {} request {} broke ({}); cancelling it", Eras.MODERN, requestId, cause.toString());
        ObjectNode params = JsonRpc.NODES.objectNode();
        params.set("requestId", requestId);
        params.put("reason", "the client's connection broke");
        dispatcher.onMessage(client, JsonRpc.notification("notifications/cancelled", params));
        end();
    }

    /** Ends the request unanswered (the gateway stops): it is cancelled and its POST answered with an error. */
    void abort(String reason) {
        client.close();
        PostExchange e = exchange;
        if (e != null) {
            e.answer(JsonRpc.write(JsonRpc.error(requestId, JsonRpc.INTERNAL_ERROR, reason, null)), 200);
        }
        end();
    }

    boolean done() {
        PostExchange e = exchange;
        return e != null && e.done();
    }

    void keepAlive(long quietNanos) {
        PostExchange e = exchange;
        if (e != null) {
            e.keepAlive(quietNanos);
        }
    }

    @Override
    public void send(ObjectNode message) {
        PostExchange e = exchange;
        if (e == null) {
            return;
        }
        if (message.has("method")) {
            if (message.hasNonNull("id")) {
                log.debug("{} request {}: a request to the client is not sent", Eras.MODERN, requestId);
                return;
            }
            e.send(JsonRpc.write(message));
            return;
        }
        int code = message.path("error").path("code").asInt(0);
        e.answer(JsonRpc.write(message), code == Eras.MISSING_CLIENT_CAPABILITY ? 400 : 200);
        end();
    }

    private void end() {
        client.close();
        if (ended.compareAndSet(false, true)) {
            onEnd.run();
        }
    }
}
