package org.metaruntime.core;

/** {@link McpModuleContract} against the real python MCP server fixture of meta-testing. */
class RealMcpModuleContractTest extends McpModuleContract {

    @Override
    UnifiedRuntime.Builder serve(UnifiedRuntime.Builder builder) {
        return builder;
    }

    /**
     * The server reads its requests one by one, in the order they were sent: once it answers a call sent now, it has
     * received every call sent before.
     */
    @Override
    void awaitReceived(int calls) {
        runtime.mcp(ID).callTool("cancelled", MAPPER.createObjectNode());
    }
}
