package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.Objects;

/** The graces of the stop ladder: close stdin, wait; SIGTERM, wait; SIGKILL, bounded wait. */
public record StopGraces(Duration stdinGrace, Duration termGrace, Duration killWait) {
    public StopGraces {
        Objects.requireNonNull(stdinGrace, "stdinGrace");
        Objects.requireNonNull(termGrace, "termGrace");
        Objects.requireNonNull(killWait, "killWait");
    }

    /** Kill at once. */
    public static StopGraces immediate() {
        return new StopGraces(Duration.ZERO, Duration.ZERO, Duration.ZERO);
    }
}
