package org.metaruntime.supervisor;

/**
 * An error as a value: one readable sentence and a stable code. The sealed error interfaces of the runtime's
 * modules extend it ({@link ProcessBoundaryError} here, the MCP boundary's, the event-line boundary's and the
 * composed errors of the runtime), so a host can log or count any of them alike; the event model's
 * {@code NormalizationError} has the same two methods without the supertype, because meta-events depends on no
 * other module. A {@link ModuleException} carries one and reports the same {@code code()}.
 *
 * <p>Where a record's code comes from: a record that is an error of its own has a {@code CODE} constant, which one
 * table of its interface pairs with it; a record that wraps the error of a layer below is a {@link Wrapper} and
 * takes that error's code.
 *
 * <pre>{@code
 * ModuleError error = routeException.error();
 * metrics.count(error.code());   // e.g. "mcp.timeout", whatever layer it came from
 * }</pre>
 *
 * <p>Implementations are immutable records, hence thread-safe.
 */
public interface ModuleError {

    /** One readable sentence describing the error. */
    String message();

    /** The error's stable code, e.g. {@code process.timeout}; never changes between releases. */
    String code();

    /**
     * An error that wraps the error of a layer below, such as a routed call's {@code ModuleRuntime} around the
     * boundary's error: its code and, unless the record says more, its message are the wrapped error's.
     *
     * <pre>{@code
     * record Mcp(McpBoundaryError error) implements RuntimeBoundaryError, ModuleError.Wrapper { ... }
     * }</pre>
     */
    interface Wrapper extends ModuleError {

        /** The wrapped error. */
        ModuleError error();

        /** The wrapped error's message. */
        @Override
        default String message() {
            return error().message();
        }

        /** The wrapped error's code, hence the code of the innermost error. */
        @Override
        default String code() {
            return error().code();
        }
    }
}
