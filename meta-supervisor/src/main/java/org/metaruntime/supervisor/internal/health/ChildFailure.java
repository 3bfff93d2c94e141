package org.metaruntime.supervisor.internal.health;

import java.util.Objects;
import java.util.OptionalInt;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;

/**
 * Why a module's child failed: a failed start attempt, or a kept child that exited on its own or broke. It carries
 * what a {@code supervisor.warning} event needs: a readable reason and, when the failure came from a process that
 * ran, its exit code and stderr tail.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * supervisor.childFailed(child, ChildFailure.exited(process.exitCode(), process.stderrTail()));
 * ChildFailure fromAttempt = ChildFailure.of(exception);
 * }</pre>
 *
 * @param reason     one readable sentence
 * @param exitCode   the exit code, when a process ran and exited
 * @param stderrTail the end of the process's stderr, empty when unknown
 * @param cause      the exception behind the failure, {@code null} when there is none
 */
public record ChildFailure(String reason, OptionalInt exitCode, String stderrTail, Throwable cause) {

    /** Validates the failure; {@code cause} may be null. */
    public ChildFailure {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(stderrTail, "stderrTail");
    }

    /** A failure described only by a reason. */
    public static ChildFailure of(String reason) {
        return new ChildFailure(reason, OptionalInt.empty(), "", null);
    }

    /**
     * A failure caused by {@code error}; a {@link ProcessBoundaryException} carrying
     * {@link ProcessBoundaryError.Exited} gives its exit code and stderr tail.
     */
    public static ChildFailure of(Throwable error) {
        Objects.requireNonNull(error, "error");
        String reason = error.getMessage() == null ? error.getClass().getName() : error.getMessage();
        if (error instanceof ProcessBoundaryException) {
            ProcessBoundaryError boundaryError = ((ProcessBoundaryException) error).error();
            if (boundaryError instanceof ProcessBoundaryError.Exited) {
                ProcessBoundaryError.Exited exited = (ProcessBoundaryError.Exited) boundaryError;
                return new ChildFailure(reason, OptionalInt.of(exited.exitCode()), exited.stderrTail(), error);
            }
        }
        return new ChildFailure(reason, OptionalInt.empty(), "", error);
    }

    /** A process that exited with {@code exitCode} while the runtime still needed it. */
    public static ChildFailure exited(int exitCode, String stderrTail) {
        ProcessBoundaryError.Exited exited = new ProcessBoundaryError.Exited(exitCode, stderrTail);
        return new ChildFailure(exited.message(), OptionalInt.of(exitCode), stderrTail, null);
    }
}
