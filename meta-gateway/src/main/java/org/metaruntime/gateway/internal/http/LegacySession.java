package org.metaruntime.gateway.internal.http;

import org.metaruntime.gateway.spi.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.Outbound;
import org.metaruntime.gateway.internal.serve.GatewayServer;

/**
 * One client of the HTTP+SSE transport (2024-11-05): its messages come as POSTs to {@code /message}, everything
 * to it goes on its one event stream, whose end is the session's end (its calls in flight are cancelled).
 * Thread-safe.
 */
final class LegacySession implements HttpSession, Outbound {

    private final String id;
    private final GatewayServer server;
    private final SseStream stream;
    private final ClientSession client;
    private final AtomicInteger handling = new AtomicInteger();
    private volatile long lastSeenNanos;
    private volatile boolean closed;

    /** @param owner the principal whose request opened it: the only one its later requests may come from */
    LegacySession(String id, GatewayServer server, Principal owner, java.util.function.Function<LegacySession, SseStream> stream) {
        this.id = id;
        this.server = server;
        this.lastSeenNanos = server.nanoClock().getAsLong();
        this.stream = stream.apply(this);
        this.client = server.openSession(this, owner, id);
    }

    @Override
    public Principal owner() {
        return client.caller();
    }

    @Override
    public String id() {
        return id;
    }

    SseStream stream() {
        return stream;
    }

    void onMessage(JsonNode message) {
        handling.incrementAndGet();
        lastSeenNanos = server.nanoClock().getAsLong();
        try {
            server.dispatcher().onMessage(client, message);
        } finally {
            handling.decrementAndGet();
        }
    }

    @Override
    public void send(ObjectNode message) {
        stream.message(JsonRpc.write(message));
    }

    @Override
    public void keepAlive(long quietNanos) {
        if (stream.quietNanos() >= quietNanos) {
            stream.comment();
        }
    }

    /** A session lives as long as its stream: a stream open is never idle (keep-alives find a client that is gone). */
    @Override
    public boolean idleFor(long idleNanos) {
        return stream.ended() && handling.get() == 0 && server.nanoClock().getAsLong() - lastSeenNanos >= idleNanos;
    }

    @Override
    public int callsInFlight() {
        return 0;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close(String reason) {
        if (closed) {
            return;
        }
        closed = true;
        if (client != null) {
            server.closeSession(client);
        }
        stream.close();
    }
}
