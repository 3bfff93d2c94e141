package org.metaruntime.core.internal;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * How a kept child ended.
 *
 * @param exitCode           the exit code, empty when unknown
 * @param stderrTail         the end of its stderr
 * @param requestedByRuntime whether the runtime stopped it (never a failure)
 * @param lostReason         why a remote module's session was lost (it has no exit code), else null
 */
public record ChildExit(OptionalInt exitCode, String stderrTail, boolean requestedByRuntime, String lostReason) {
    public ChildExit {
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(stderrTail, "stderrTail");
    }

    /** How a process ended. */
    public ChildExit(OptionalInt exitCode, String stderrTail, boolean requestedByRuntime) {
        this(exitCode, stderrTail, requestedByRuntime, null);
    }
}
