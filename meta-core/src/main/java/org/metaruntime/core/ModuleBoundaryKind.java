package org.metaruntime.core;

/**
 * The boundary a module is reached through: the {@linkplain ModuleProtocol#boundary() boundary of its protocol}
 * (see {@link MetaConfig#boundaryOf(String)}). Immutable and thread-safe.
 */
public enum ModuleBoundaryKind {
    /** An MCP server (stdio or remote), or a bare JSON-RPC 2.0 server served as one. */
    MCP,
    /** A one-shot process that writes one JSON event as its first stdout line. */
    EVENT_LINE
}
