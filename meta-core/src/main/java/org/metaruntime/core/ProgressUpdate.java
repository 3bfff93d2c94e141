package org.metaruntime.core;

/**
 * A module's report on a call in flight ({@code notifications/progress} of MCP), delivered to
 * {@link CallOptions.Builder#onProgress}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param progress how far the call is, growing with each update
 * @param total    the value {@code progress} will reach, or null when the module does not know it
 * @param message  a human-readable note, or null
 */
public record ProgressUpdate(double progress, Double total, String message) {
}
