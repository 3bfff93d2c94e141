/**
 * The MCP boundary: calls tools of a module that speaks MCP (JSON-RPC 2.0) on its stdin/stdout.
 *
 * <p>{@link org.metaruntime.mcp.McpProbe} starts and probes a module, {@link org.metaruntime.mcp.McpConnection}
 * is a persistent, multiplexed session, {@link org.metaruntime.mcp.McpPerCall} runs the one-process-per-call
 * mode. Failures are {@link org.metaruntime.mcp.McpBoundaryError} values carried by
 * {@link org.metaruntime.mcp.McpBoundaryException}. The protocol comes from the MCP Java SDK's client session;
 * the process (spawn, framing, stop ladder) from meta-supervisor. No public method takes or returns a Reactor type.
 */
package org.metaruntime.mcp;
