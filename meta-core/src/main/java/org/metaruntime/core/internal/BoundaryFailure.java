package org.metaruntime.core.internal;

import java.util.Objects;
import java.util.OptionalInt;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.supervisor.ModuleException;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.internal.health.ChildFailure;

/**
 * A failure of a module's boundary, as the runtime composes it: the boundary error, plus the exit code and stderr
 * tail when the failure came from a process that ran.
 */
public final class BoundaryFailure extends ModuleException {

    private final transient RuntimeBoundaryError error;

    public BoundaryFailure(String moduleId, RuntimeBoundaryError error, OptionalInt exitCode, String stderrTail,
                           Throwable cause) {
        super(moduleId, "module '" + moduleId + "'", Objects.requireNonNull(error, "error").explained(),
                Objects.requireNonNull(exitCode, "exitCode"), stderrTail == null ? "" : stderrTail, cause);
        this.error = error;
    }

    public BoundaryFailure(String moduleId, RuntimeBoundaryError error) {
        this(moduleId, error, OptionalInt.empty(), "", null);
    }

    public RuntimeBoundaryError error() {
        return error;
    }

    @Override
    public String code() {
        return error.code();
    }

    /** Whether the failure came from a process that ran (it was spawned, then failed to answer as required). */
    public boolean processRan() {
        if (exitCode().isPresent() || error instanceof RuntimeBoundaryError.Normalize) {
            return true;
        }
        return error instanceof RuntimeBoundaryError.Process
                && !(((RuntimeBoundaryError.Process) error).error() instanceof ProcessBoundaryError.SpawnFailed);
    }

    /** The failure as the supervisor records it. */
    public ChildFailure toChildFailure() {
        return new ChildFailure(getMessage(), exitCode(), stderrTail(), this);
    }
}
