package org.metaruntime.core.internal;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * How a kept child ended.
 *
 * @param exitCode           the exit code, empty when unknown
 * @param stderrTail         the end of its stderr
 * @param requestedByRuntime whether the runtime stopped it (never a failure)
 */
public record ChildExit(OptionalInt exitCode, String stderrTail, boolean requestedByRuntime) {
    public ChildExit {
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(stderrTail, "stderrTail");
    }
}
