package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** An open MCP connection: its calls are multiplexed on the one server. Thread-safe. */
public interface McpChild extends ModuleChild {

    /** The tools in server order. */
    List<String> tools();

    /**
     * A tool call on this connection. Completes with the payload, or exceptionally with a {@link BoundaryFailure}.
     */
    CompletableFuture<JsonNode> call(String tool, JsonNode arguments, Duration timeout);
}
