package org.metaruntime.gateway.internal.rpc;

import java.util.Objects;

/**
 * Who sent a request, as far as the gateway can tell: the principal of an authenticated HTTP request, anyone over
 * HTTP without credentials, the one client on the stdio pipe. Two callers are the same when both {@code auth} (how
 * they were identified) and {@code name} are equal. Immutable.
 *
 * @param auth how the caller was identified: {@code local} (the stdio pipe), {@code none} (HTTP without
 *             credentials), {@code token} (the gateway's bearer token)
 * @param name the principal's name
 */
public record Caller(String auth, String name) {

    /** The client on the stdio pipe. */
    public static final Caller LOCAL = new Caller("local", "local");
    /** Any HTTP client when the gateway checks no credentials. */
    public static final Caller ANONYMOUS = new Caller("none", "anonymous");
    /** An HTTP client that presented the gateway's bearer token. */
    public static final Caller TOKEN = new Caller("token", "token");

    public Caller {
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(name, "name");
    }

    /** One string naming the caller, the same for the same caller and different for different ones. */
    public String key() {
        return auth.length() + ":" + auth + ":" + name;
    }
}
