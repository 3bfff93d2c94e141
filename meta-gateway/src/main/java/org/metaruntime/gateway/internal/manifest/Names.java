package org.metaruntime.gateway.internal.manifest;

import java.util.regex.Pattern;
import org.metaruntime.core.ToolRole;

/** The name rules clients impose on tool names, applied to pods, tools and outward names. Stateless. */
public final class Names {

    /** What Claude Desktop and other clients accept as a tool name. */
    public static final Pattern CLIENT_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");
    /** The pod name the gateway's own tools and resources use. */
    public static final String RESERVED_POD = "meta";
    /** The default separator between pod and tool in outward names. */
    public static final String DEFAULT_SEPARATOR = "__";
    /** A tag of a pod ({@code metadata.tags}), and a profile's name. */
    private static final Pattern TAG = Pattern.compile("^[A-Za-z0-9_.-]{1,64}$");
    private static final Pattern SEPARATOR = Pattern.compile("^[a-zA-Z0-9_-]{1,8}$");

    private Names() {
    }

    /** Whether clients accept {@code name}. */
    public static boolean clientSafe(String name) {
        return name != null && CLIENT_NAME.matcher(name).matches();
    }

    /** Whether {@code separator} may join pod and tool names. */
    /** Whether {@code name} is a valid tag or profile name: 1 to 64 of letters, digits, {@code _ . -}. */
    public static boolean validTag(String name) {
        return name != null && TAG.matcher(name).matches();
    }

    public static boolean validSeparator(String separator) {
        return separator != null && SEPARATOR.matcher(separator).matches();
    }

    /**
     * The outward name of {@code tool} of {@code pod}: {@code <pod><separator><tool>}, where a seat verb
     * {@code <seat>.<verb>} (a dot clients do not accept) becomes {@code <seat>_<verb>}.
     */
    public static String outward(String pod, String separator, String tool) {
        if (ToolRole.of(tool) instanceof ToolRole.SeatVerb sv) {
            return pod + separator + sv.seat() + "_" + sv.verb();
        }
        return pod + separator + tool;
    }

    /** Whether a pod may declare a tool named {@code name}: clients accept it, or it is a seat verb. */
    public static boolean declarable(String name) {
        return clientSafe(name) || ToolRole.of(name) instanceof ToolRole.SeatVerb;
    }

    /** The rule in words, for messages. */
    public static String rule() {
        return "letters, digits, '_' and '-' only, 1 to 64 characters";
    }
}
