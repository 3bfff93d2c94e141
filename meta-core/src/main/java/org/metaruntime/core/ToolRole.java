package org.metaruntime.core;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a module's tool is for, read from its name: a tool named {@code <seat>.<verb>} (exactly one dot, both parts
 * {@code [a-z][a-z0-9_-]*}) is the module's implementation of that seat's verb; any other name is the module's
 * own tool. A value; thread-safe.
 *
 * <pre>{@code
 * if (runtime.mcp("files").role("storage.read") instanceof ToolRole.SeatVerb sv) {
 *     log.info("files implements verb {} of seat {}", sv.verb(), sv.seat());   // read, storage
 * }
 * ToolRole.of("read_file");        // Own[]
 * ToolRole.of("storage.read.all"); // Own[]: exactly one dot
 * }</pre>
 */
public sealed interface ToolRole permits ToolRole.SeatVerb, ToolRole.Own {

    /** The rule for a seat and for a verb. */
    Pattern PART = Pattern.compile("[a-z][a-z0-9_-]*");

    /**
     * The role of a tool named {@code toolName}.
     *
     * @throws NullPointerException when {@code toolName} is null
     */
    static ToolRole of(String toolName) {
        Objects.requireNonNull(toolName, "toolName");
        Matcher m = SeatVerb.NAME.matcher(toolName);
        return m.matches() ? new SeatVerb(m.group(1), m.group(2)) : Own.INSTANCE;
    }

    /**
     * The module's implementation of verb {@code verb} of seat {@code seat}.
     *
     * @param seat the part before the dot
     * @param verb the part after it
     */
    record SeatVerb(String seat, String verb) implements ToolRole {

        static final Pattern NAME = Pattern.compile("([a-z][a-z0-9_-]*)\\.([a-z][a-z0-9_-]*)");

        public SeatVerb {
            Objects.requireNonNull(seat, "seat");
            Objects.requireNonNull(verb, "verb");
            if (!PART.matcher(seat).matches() || !PART.matcher(verb).matches()) {
                throw new IllegalArgumentException("seat \"" + seat + "\" and verb \"" + verb
                        + "\" must each match [a-z][a-z0-9_-]*");
            }
        }

        /** The tool name, {@code <seat>.<verb>}. */
        public String toolName() {
            return seat + "." + verb;
        }
    }

    /** A tool of the module's own (its name is not {@code <seat>.<verb>}). */
    record Own() implements ToolRole {
        static final Own INSTANCE = new Own();
    }
}
