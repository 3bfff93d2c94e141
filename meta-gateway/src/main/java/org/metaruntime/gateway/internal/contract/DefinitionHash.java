package org.metaruntime.gateway.internal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The definition hash of a tool: {@code sha256:} + the hex SHA-256 of the RFC 8785 form of its {@code name},
 * {@code description}, {@code inputSchema}, {@code outputSchema} and {@code annotations} (those it has; its other
 * members, such as {@code title} or {@code _meta}, are not part of it). Stateless.
 */
public final class DefinitionHash {

    /** The members a definition hash covers. */
    public static final List<String> MEMBERS = List.of("name", "description", "inputSchema", "outputSchema", "annotations");

    private static final Pattern FORM = Pattern.compile("sha256:[0-9a-f]{64}");

    private DefinitionHash() {
    }

    /** The object hashed: the members of {@code tool} the hash covers, those it leaves out left out. */
    public static ObjectNode hashed(JsonNode tool) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (String member : MEMBERS) {
            JsonNode value = tool.get(member);
            if (value != null) {
                out.set(member, value.deepCopy());
            }
        }
        return out;
    }

    /**
     * The definition hash of {@code tool} as a pod lists it ({@code name} is the pod's own name of the tool).
     *
     * @throws IllegalArgumentException when it holds a number or string with no canonical form
     */
    public static String of(JsonNode tool) {
        return CanonicalJson.schemaHash(hashed(tool));
    }

    /** Whether {@code text} is {@code sha256:} and 64 lowercase hex digits. */
    public static boolean wellFormed(String text) {
        return text != null && FORM.matcher(text).matches();
    }
}
