package org.metaruntime.gateway.internal.http;

/** A client session of one of the HTTP transports, as the registry sees it. Thread-safe. */
interface HttpSession {

    String id();

    /** Sends keep-alive comments on quiet streams. */
    void keepAlive(long quietNanos);

    /** Whether it had no request, call in flight or open stream for {@code idleNanos}. */
    boolean idleFor(long idleNanos);

    /** Calls in flight on it now. */
    int callsInFlight();

    /** Ends it: its calls in flight are cancelled, its streams ended. Idempotent. */
    void close(String reason);
}
