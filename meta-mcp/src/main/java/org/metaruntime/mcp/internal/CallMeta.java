package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.metaruntime.mcp.McpCallOptions;

/**
 * The {@code _meta} entries of {@link McpCallOptions} as the options hold them, without the copies their public
 * methods make: for the library's own call paths. A node passed in or out here is never changed by anyone.
 */
public final class CallMeta {

    /** What {@link McpCallOptions} lets this class do; granted once, when it is initialised. */
    public interface Access {

        /** The options' entries, as held; null for none. */
        ObjectNode held(McpCallOptions options);

        /** Makes the builder hold {@code meta} itself. */
        void hold(McpCallOptions.Builder builder, ObjectNode meta);
    }

    private static volatile Access access;

    private CallMeta() {
    }

    /** Called by {@link McpCallOptions} only. */
    public static void grant(Access granted) {
        access = granted;
    }

    /** The entries {@code options} hold (null for none): not a copy, never to be changed. */
    public static ObjectNode held(McpCallOptions options) {
        return access.held(options);
    }

    /**
     * Makes {@code builder} hold {@code meta} without copying it: for a node that nobody changes afterwards (one that
     * other options hold, or a fresh one given up by its maker).
     */
    public static McpCallOptions.Builder hold(McpCallOptions.Builder builder, ObjectNode meta) {
        access.hold(builder, meta);
        return builder;
    }
}
