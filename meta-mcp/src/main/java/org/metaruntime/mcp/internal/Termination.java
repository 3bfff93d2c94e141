package org.metaruntime.mcp.internal;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Why a connection can carry no more requests: a readable reason and, when the server died, its exit code and
 * stderr tail. Immutable.
 *
 * @param reason     one readable clause, e.g. "the server process (pid 12) exited with code 3; stderr tail: ..."
 * @param exitCode   the server's exit code when it died
 * @param stderrTail the server's stderr tail when it died, else empty
 * @param lost       whether a remote server's session was lost (unreachable, HTTP 5xx, or a forgotten session that
 *                   a new {@code initialize} did not cure)
 */
public record Termination(String reason, OptionalInt exitCode, String stderrTail, boolean lost) {
    /** Validates the termination. */
    public Termination {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(stderrTail, "stderrTail");
    }

    /** The server's death: its exit code and stderr tail. */
    public static Termination exited(String reason, OptionalInt exitCode, String stderrTail) {
        return new Termination(reason, exitCode, stderrTail, false);
    }

    /** A termination that is not the server's death (closed by the host, stdout closed). */
    public static Termination of(String reason) {
        return new Termination(reason, OptionalInt.empty(), "", false);
    }

    /** A remote server's session was lost. */
    public static Termination lost(String reason) {
        return new Termination(reason, OptionalInt.empty(), "", true);
    }
}
