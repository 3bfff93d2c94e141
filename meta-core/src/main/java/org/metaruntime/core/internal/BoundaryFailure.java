package org.metaruntime.core.internal;

import java.util.Objects;
import java.util.OptionalInt;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.supervisor.ChildFailure;
import org.metaruntime.supervisor.ProcessBoundaryError;

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

    /** Whether the failure came from a process that ran (it was spawned, then failed to answer as required). */
    public boolean processRan() {
        if (exitCode.isPresent() || error instanceof RuntimeBoundaryError.Normalize) {
            return true;
        }
        return error instanceof RuntimeBoundaryError.Process
                && !(((RuntimeBoundaryError.Process) error).error() instanceof ProcessBoundaryError.SpawnFailed);
    }

    /** The failure as the supervisor records it. */
    public ChildFailure toChildFailure() {
        return new ChildFailure(getMessage(), exitCode, stderrTail, this);
    }
}
