package org.metaruntime.core.internal;

import java.util.Objects;
import java.util.OptionalInt;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.supervisor.ChildFailure;

/**
 * A failure of a module's boundary, as the runtime composes it: the boundary error, plus the exit code and stderr
 * tail when the failure came from a process that ran.
 */
public final class BoundaryFailure extends RuntimeException {

    private final String moduleId;
    private final transient RuntimeBoundaryError error;
    private final OptionalInt exitCode;
    private final String stderrTail;

    public BoundaryFailure(String moduleId, RuntimeBoundaryError error, OptionalInt exitCode, String stderrTail,
                           Throwable cause) {
        super(describe(moduleId, error, exitCode, stderrTail), cause);
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.error = Objects.requireNonNull(error, "error");
        this.exitCode = Objects.requireNonNull(exitCode, "exitCode");
        this.stderrTail = stderrTail == null ? "" : stderrTail;
    }

    public BoundaryFailure(String moduleId, RuntimeBoundaryError error) {
        this(moduleId, error, OptionalInt.empty(), "", null);
    }

    private static String describe(String moduleId, RuntimeBoundaryError error, OptionalInt exitCode, String tail) {
        return Texts.withProcessDetail("module '" + moduleId + "': " + error.message(), exitCode, tail);
    }

    public String moduleId() {
        return moduleId;
    }

    public RuntimeBoundaryError error() {
        return error;
    }

    public OptionalInt exitCode() {
        return exitCode;
    }

    public String stderrTail() {
        return stderrTail;
    }

    /** The failure as the supervisor records it. */
    public ChildFailure toChildFailure() {
        return new ChildFailure(getMessage(), exitCode, stderrTail, this);
    }
}
