package org.metaruntime.supervisor;

import java.util.Objects;

/**
 * An option refused by the builder or record that holds it: every options group of the runtime (this module's
 * {@link SupervisionOptions} and {@link StopLadder}, meta-mcp's client options, meta-core's {@code RuntimeOptions},
 * {@code ModuleConfig} and {@code CallOptions}, the gateway's options) fails with this one type. {@link #field()} is
 * the path of the offending field from the options the caller built: {@code maxRestarts} for
 * {@code SupervisionOptions.builder().maxRestarts(-1)}, {@code supervision.maxBackoff} for a
 * {@code RuntimeOptions} whose supervision group is inconsistent, {@code modules[weather].startupTimeout} for a
 * module. meta-core's {@code ConfigException} is the subtype its configuration throws.
 *
 * <pre>{@code
 * try {
 *     SupervisionOptions.builder().maxRestarts(-1);
 * } catch (InvalidOptionException e) {
 *     System.err.println(e.field() + ": " + e.problem());   // maxRestarts: must not be negative, got -1
 * }
 * }</pre>
 *
 * <p>It is an {@link IllegalArgumentException}, so code that caught that before still does. Immutable and
 * thread-safe.
 */
public class InvalidOptionException extends IllegalArgumentException {

    private final String field;
    private final String problem;

    /**
     * A problem with {@code field}.
     *
     * @param field   the path of the field, e.g. {@code supervision.maxRestarts} or {@code modules[2].url}
     * @param problem one sentence describing what is wrong with its value
     */
    public InvalidOptionException(String field, String problem) {
        super("invalid configuration at " + Objects.requireNonNull(field, "field") + ": "
                + Objects.requireNonNull(problem, "problem"));
        this.field = field;
        this.problem = problem;
    }

    /** The path of the offending field, e.g. {@code supervision.maxRestarts}. */
    public String field() {
        return field;
    }

    /** What is wrong with the field's value, without the path. */
    public String problem() {
        return problem;
    }

    /**
     * The path of a field of a group set at {@code parent}: {@code parent.field}, or {@code parent[i]...} when
     * {@code field} starts with an index.
     */
    public static String path(String parent, String field) {
        Objects.requireNonNull(parent, "parent");
        Objects.requireNonNull(field, "field");
        return field.startsWith("[") ? parent + field : parent + "." + field;
    }
}
