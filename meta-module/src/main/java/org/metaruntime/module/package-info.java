/**
 * The thin Java SDK for writing a meta-runtime module: {@link org.metaruntime.module.ModuleServer} serves tools
 * as an MCP server over stdio, {@link org.metaruntime.module.Tool} describes one, a
 * {@link org.metaruntime.module.ToolHandler} is its code and returns a value or a
 * {@link org.metaruntime.module.ToolResult}.
 */
package org.metaruntime.module;
