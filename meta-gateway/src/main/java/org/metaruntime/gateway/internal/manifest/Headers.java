package org.metaruntime.gateway.internal.manifest;

import java.util.Optional;
import org.metaruntime.mcp.McpHttpEndpoint;

/**
 * Request headers of remote pods, checked as HTTP headers after their {@code ${NAME}}s are replaced
 * ({@link Variables}). Stateless.
 */
final class Headers {

    private Headers() {
    }

    /** What is wrong with the header (after expansion), if anything. */
    static Optional<String> problem(String name, String value) {
        return McpHttpEndpoint.headerProblem(name, value);
    }
}
