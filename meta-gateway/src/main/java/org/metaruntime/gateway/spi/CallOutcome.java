package org.metaruntime.gateway.spi;

import java.util.Locale;

/** How a call ended, as the audit records name it. */
public enum CallOutcome {
    /** A result. */
    OK,
    /** A JSON-RPC error not named below, or a result with {@code isError: true}. */
    ERROR,
    /** The principal may not call the tool. */
    DENIED,
    /** A rate limit refused the call. */
    RATE_LIMITED,
    /** Cancelled by the client, a disconnect, or the end of the outer call. */
    CANCELLED,
    /** The call timed out (-32001). */
    TIMEOUT;

    /** The name in the audit record: {@code ok}, {@code rate_limited}, ... */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
