package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import org.metaruntime.mcp.McpConnection;

/** An open MCP connection: its calls are multiplexed on the one server. Thread-safe. */
public interface McpChild extends ModuleChild {

    /** The tools in server order. */
    List<String> tools();

    /** The MCP session of this child; empty for an in-process child. */
    Optional<McpConnection> connection();

    /** Starts a tool call on this connection. */
    BoundaryCall call(String tool, JsonNode arguments, CallSpec call);
}
