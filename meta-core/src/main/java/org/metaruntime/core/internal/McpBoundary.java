package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.supervisor.InFlight;

/** The boundary of an MCP module: a connection per start, or a whole session per {@code PER_CALL} call. Thread-safe. */
public interface McpBoundary extends ModuleBoundary {

    @Override
    default ModuleBoundaryKind kind() {
        return ModuleBoundaryKind.MCP;
    }

    @Override
    McpChild start(Duration timeout) throws InterruptedException;

    /**
     * {@code PER_CALL}: spawn, initialize, list tools, call, close, off the caller's thread; a cancel stops the
     * server.
     */
    InFlight<JsonNode> callOnce(String tool, JsonNode arguments, CallSpec call, Executor executor);
}
