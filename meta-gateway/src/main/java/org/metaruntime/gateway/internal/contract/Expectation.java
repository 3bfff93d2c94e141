package org.metaruntime.gateway.internal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a caller expects of the tool it calls ({@code expect}: {@code id}, {@code version} range,
 * {@code schema_hash}, {@code definition_hash}), and the check of a tool against it. Immutable and thread-safe.
 *
 * <pre>{@code
 * Expectation expect = Expectation.parse(params.get("expect"));   // {"id": "x.fmt", "version": "^1.0.0"}
 * Optional<ObjectNode> mismatch = expect.check("x.fmt", "1.4.2", "sha256:...");   // empty: it fits
 * }</pre>
 *
 * @param id         the contract id expected, or null
 * @param version    the version range expected, or null
 * @param schemaHash the {@code sha256:} hash of the input schema expected, or null
 * @param definitionHash the definition hash expected (as the status shows it), or null
 */
public record Expectation(String id, SemverRange version, String schemaHash, String definitionHash) {

    private static final Set<String> KEYS = Set.of("id", "version", "schema_hash", "definition_hash");

    /** An expectation of no definition hash. */
    public Expectation(String id, SemverRange version, String schemaHash) {
        this(id, version, schemaHash, null);
    }

    /**
     * Reads {@code expect}; null or absent means nothing is expected.
     *
     * @throws IllegalArgumentException when it is not an object of strings with those keys, or its version is not a
     *                                  range
     */
    public static Expectation parse(JsonNode expect) {
        if (expect == null || expect.isNull() || expect.isMissingNode()) {
            return new Expectation(null, null, null);
        }
        if (!expect.isObject()) {
            throw new IllegalArgumentException("expect must be an object with id, version, schema_hash and definition_hash");
        }
        for (Iterator<String> it = expect.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("expect has an unknown key \"" + key + "\" (id, version, schema_hash, definition_hash)");
            }
        }
        String id = text(expect, "id");
        String range = text(expect, "version");
        String hash = text(expect, "schema_hash");
        String definition = text(expect, "definition_hash");
        SemverRange version = null;
        if (range != null) {
            try {
                version = SemverRange.parse(range);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("expect.version \"" + range + "\" is not a version range");
            }
        }
        return new Expectation(id, version, hash, definition);
    }

    private static String text(JsonNode expect, String key) {
        JsonNode node = expect.get(key);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw new IllegalArgumentException("expect." + key + " must be a string");
        }
        return node.textValue();
    }

    /**
     * Checks a tool's contract and schema hash.
     *
     * @param contractId      the tool's contract id, or null when it declares none
     * @param contractVersion its contract version, or null
     * @param toolSchemaHash  the hash of its input schema, or null when unknown
     * @return empty when everything expected is found; else {@code {"mismatch": [keys], "expected": {...},
     *         "found": {...}}} with the expected keys
     */
    public Optional<ObjectNode> check(String contractId, String contractVersion, String toolSchemaHash) {
        return check(contractId, contractVersion, toolSchemaHash, null);
    }

    /**
     * Checks a tool's contract, schema hash and definition hash.
     *
     * @param toolDefinitionHash the tool's definition hash as the status shows it (the live one once its pod listed
     *                           its tools, else the declared one), or null when unknown
     * @return as {@link #check(String, String, String)}, {@code definition_hash} among the keys
     */
    public Optional<ObjectNode> check(String contractId, String contractVersion, String toolSchemaHash, String toolDefinitionHash) {
        List<String> mismatch = new ArrayList<>();
        if (id != null && !id.equals(contractId)) {
            mismatch.add("id");
        }
        if (version != null && (contractVersion == null || !version.satisfiedBy(contractVersion))) {
            mismatch.add("version");
        }
        if (schemaHash != null && !schemaHash.equalsIgnoreCase(String.valueOf(toolSchemaHash))) {
            mismatch.add("schema_hash");
        }
        if (definitionHash != null && !definitionHash.equalsIgnoreCase(String.valueOf(toolDefinitionHash))) {
            mismatch.add("definition_hash");
        }
        if (mismatch.isEmpty()) {
            return Optional.empty();
        }
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode data = f.objectNode();
        mismatch.forEach(data.putArray("mismatch")::add);
        ObjectNode expected = data.putObject("expected");
        ObjectNode found = data.putObject("found");
        if (id != null) {
            expected.put("id", id);
            found.put("id", contractId);
        }
        if (version != null) {
            expected.put("version", version.toString());
            found.put("version", contractVersion);
        }
        if (schemaHash != null) {
            expected.put("schema_hash", schemaHash);
            found.put("schema_hash", toolSchemaHash);
        }
        if (definitionHash != null) {
            expected.put("definition_hash", definitionHash);
            found.put("definition_hash", toolDefinitionHash);
        }
        return Optional.of(data);
    }

    /** Whether anything is expected. */
    public boolean isEmpty() {
        return id == null && version == null && schemaHash == null && definitionHash == null;
    }
}
