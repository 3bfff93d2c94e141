package org.metaruntime.mcp;

/** How an MCP module's connection is used. An enum: immutable and thread-safe. */
public enum McpSessionMode {
    /** Every call spawns the server, initializes, lists tools, calls and closes. */
    PER_CALL,
    /** The startup probe's connection stays open and serves every call, multiplexed (the default). */
    PERSISTENT
}
