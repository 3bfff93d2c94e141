package org.metaruntime.mcp;

/**
 * One {@code notifications/progress} the server sent for a call. Immutable and thread-safe.
 *
 * <pre>{@code
 * McpCallOptions options = McpCallOptions.builder(Duration.ofMinutes(1))
 *         .onProgress(p -> log.info("{} of {}: {}", p.progress(), p.total(), p.message()))
 *         .build();
 * }</pre>
 *
 * @param progress how far the operation is (increases with each update)
 * @param total    the total when the server knows it, else {@code null}
 * @param message  a human-readable message, or {@code null}
 */
public record McpProgress(double progress, Double total, String message) {
}
