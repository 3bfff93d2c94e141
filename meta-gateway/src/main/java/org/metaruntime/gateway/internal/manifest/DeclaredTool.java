package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import org.metaruntime.gateway.internal.contract.DefinitionHash;

/**
 * A tool declared in a manifest.
 *
 * @param name       the pod's own name of the tool
 * @param line       where it is declared
 * @param definition the MCP {@code Tool} object served outward, less its name (description, inputSchema,
 *                   outputSchema, annotations, title as written); never modified
 * @param contract   its contract, or null
 * @param schemaHash {@code sha256:} + hex SHA-256 of the RFC 8785 form of its inputSchema
 * @param pin        its explicit pin (a definition hash), or null (then it is pinned on first use)
 * @param onDrift    what a drift from its pin does, or null (its pod's {@code spec.onDrift}, else the default)
 */
public record DeclaredTool(String name, int line, ObjectNode definition, Contract contract, String schemaHash,
                           String pin, OnDrift onDrift) {

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

    /** A tool without an explicit pin or {@code onDrift}. */
    public DeclaredTool(String name, int line, ObjectNode definition, Contract contract, String schemaHash) {
        this(name, line, definition, contract, schemaHash, null, null);
    }

    /** The definition hash of the declared definition (equal to the live one when the pod lists it as declared). */
    public String definitionHash() {
        ObjectNode tool = definition.deepCopy();
        tool.put("name", name);
        return DefinitionHash.of(tool);
    }

    @Override
    public ObjectNode definition() {
        return definition.deepCopy();
    }
}
