/**
 * Internals of the MCP boundary: the SDK client transport over the process layer, result mapping, the shared
 * timer. Not covered by compatibility.
 */
package org.metaruntime.mcp.internal;
