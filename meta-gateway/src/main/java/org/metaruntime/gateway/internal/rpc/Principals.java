package org.metaruntime.gateway.internal.rpc;

import java.util.List;
import java.util.Map;
import org.metaruntime.gateway.spi.Principal;

/** The principals the gateway makes itself, and the key that names one. */
public final class Principals {

    /** The client on the stdio pipe. */
    public static final Principal LOCAL = new Principal("local", "local", List.of(), Map.of());
    /** Any HTTP client when the gateway checks no credentials. */
    public static final Principal ANONYMOUS = new Principal("anonymous", "none", List.of(), Map.of());
    /** An HTTP client that presented the gateway's single bearer token: every tool, admin. */
    public static final Principal TOKEN = new Principal("token", "token", List.of("all"), Map.of());

    private Principals() {
    }

    /** One string naming {@code principal}: the same for the same principal and different for different ones. */
    public static String key(Principal principal) {
        return principal.auth().length() + ":" + principal.auth() + ":" + principal.name();
    }
}
