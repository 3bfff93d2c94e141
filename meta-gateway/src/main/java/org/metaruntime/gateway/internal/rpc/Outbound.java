package org.metaruntime.gateway.internal.rpc;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Where a client session's messages go (a transport's writer). Implementations are thread-safe. */
public interface Outbound {

    /** Sends one message; never blocks for long; drops it when the client is gone. */
    void send(ObjectNode message);
}
