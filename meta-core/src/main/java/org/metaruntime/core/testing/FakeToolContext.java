package org.metaruntime.core.testing;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a {@link FakeTool.WithContext} can do while its call runs, as a real MCP server can. Thread-safe.
 */
public interface FakeToolContext {

    /**
     * Sends a {@code notifications/progress} for this call: the caller's progress listener gets it, in order, before
     * the call's answer. With {@code resetTimeoutOnProgress} it starts the call's timeout again. Ignored once the call
     * has ended.
     *
     * @param progress how far the tool is (increasing)
     * @param total    the total when known, else {@code null}
     * @param message  a human-readable message, or {@code null}
     */
    void progress(double progress, Double total, String message);

    /** Sends a server notification ({@code notifications/message}, a list change...) to the module's subscribers. */
    void notify(String method, JsonNode params);

    /** Whether the call has ended for its caller: cancelled, timed out, or its connection ended. */
    boolean isCancelled();
}
