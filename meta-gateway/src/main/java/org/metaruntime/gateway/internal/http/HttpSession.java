package org.metaruntime.gateway.internal.http;

import org.metaruntime.gateway.spi.Principal;

/** A client session of one of the HTTP transports, as the registry sees it. Thread-safe. */
interface HttpSession {

    String id();

    /** The principal whose request opened it; a request of another principal is answered as for an unknown session. */
    Principal owner();

    /** Sends keep-alive comments on quiet streams. */
    void keepAlive(long quietNanos);

    /** Whether it had no request, call in flight or open stream for {@code idleNanos}. */
    boolean idleFor(long idleNanos);

    /** Calls in flight on it now. */
    int callsInFlight();

    /** Ends it: its calls in flight are cancelled, its streams ended. Idempotent. */
    void close(String reason);
}
