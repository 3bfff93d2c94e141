package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.metaruntime.supervisor.InFlight;

/** An open MCP connection: its calls are multiplexed on the one server. Thread-safe. */
public interface McpChild extends ModuleChild {

    /** The tools in server order. */
    List<String> tools();

    /** The MCP session of this child. */
    McpSession session();

    /** Starts a tool call on this connection, its failures mapped to {@link BoundaryFailure}s. */
    default InFlight<JsonNode> call(String tool, JsonNode arguments, CallSpec call) {
        McpSession session = session();
        return ProcessBoundaries.handle(session.moduleId(),
                session.startCall(tool, arguments, ProcessBoundaries.mcpCall(call)));
    }
}
