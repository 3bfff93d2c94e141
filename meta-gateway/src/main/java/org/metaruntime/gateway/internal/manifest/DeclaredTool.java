package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A tool declared in a manifest.
 *
 * @param name       the pod's own name of the tool
 * @param line       where it is declared
 * @param definition the MCP {@code Tool} object served outward, less its name (description, inputSchema,
 *                   outputSchema, annotations, title as written); never modified
 * @param contract   its contract, or null
 * @param schemaHash {@code sha256:} + hex SHA-256 of the RFC 8785 form of its inputSchema
 */
public record DeclaredTool(String name, int line, ObjectNode definition, Contract contract, String schemaHash) {

    /** A tool's contract: an id and a semver 2.0.0 version. */
    public record Contract(String id, String version) {
        public Contract {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(version, "version");
        }
    }

    public DeclaredTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(schemaHash, "schemaHash");
        definition = definition.deepCopy();
    }

    @Override
    public ObjectNode definition() {
        return definition.deepCopy();
    }
}
