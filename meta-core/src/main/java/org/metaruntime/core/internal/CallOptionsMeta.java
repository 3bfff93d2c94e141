package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Function;
import org.metaruntime.core.CallOptions;

/**
 * The {@code _meta} entries of {@link CallOptions} as the options hold them, without the copy
 * {@link CallOptions#meta()} makes: for the runtime's own call path. The node is never changed by anyone.
 */
public final class CallOptionsMeta {

    private static volatile Function<CallOptions, ObjectNode> access;

    private CallOptionsMeta() {
    }

    /** Called by {@link CallOptions} only, once, when it is initialised. */
    public static void grant(Function<CallOptions, ObjectNode> granted) {
        access = granted;
    }

    /** The entries {@code options} hold (null for none): not a copy, never to be changed. */
    public static ObjectNode held(CallOptions options) {
        return access.apply(options);
    }
}
