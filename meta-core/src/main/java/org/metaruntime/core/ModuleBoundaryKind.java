package org.metaruntime.core;

/**
 * The boundary a module is reached through, selected only by the {@link PreSpawnData} marker
 * {@value PreSpawnData#BOUNDARY_KEY} (see {@link MetaConfig#boundaryOf(String)}). Immutable and thread-safe.
 */
public enum ModuleBoundaryKind {
    /** An MCP stdio server: the marker is {@code mcp}. */
    MCP,
    /** A one-shot process that writes one JSON event as its first stdout line: no marker. */
    EVENT_LINE
}
