package org.metaruntime.gateway.internal.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Where a client session's messages go (a transport's writer). Implementations are thread-safe. */
public interface Outbound {

    /** Sends one message; never blocks for long; drops it when the client is gone. */
    void send(ObjectNode message);

    /**
     * Sends a message that belongs to the client's request {@code relatedRequestId} (its progress, a request made
     * while it runs). A transport with one channel per request sends it there; by default like {@link #send}.
     */
    default void send(ObjectNode message, JsonNode relatedRequestId) {
        send(message);
    }

    /**
     * Sends the answers to a JSON-RPC batch together, as one array of messages. A transport that cannot carry an
     * array sends them one by one.
     */
    default void sendBatch(ArrayNode messages) {
        messages.forEach(message -> send((ObjectNode) message));
    }
}
