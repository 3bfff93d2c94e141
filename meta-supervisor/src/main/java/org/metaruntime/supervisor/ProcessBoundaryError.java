package org.metaruntime.supervisor;

import java.util.Objects;

/**
 * Why talking to a module's process failed. A value: match on the record to handle each case.
 *
 * <pre>{@code
 * if (error instanceof ProcessBoundaryError.Timeout t) {
 *     retryLater(t.timeoutMs());
 * }
 * }</pre>
 */
public sealed interface ProcessBoundaryError extends ModuleError {

    /** One readable sentence describing the error. */
    String message();

    /**
     * The error's stable code, for logs, metrics and matching without {@code instanceof}; never changes between
     * releases: the record's {@code CODE} constant, which {@code ProcessBoundaryErrorCodes}, the one table of this
     * interface's codes, pairs with the record.
     */
    @Override
    default String code() {
        return ProcessBoundaryErrorCodes.BY_RECORD.get(getClass());
    }

    /** The process could not be started (missing executable, bad working directory, ...). */
    record SpawnFailed(String message) implements ProcessBoundaryError {
        /** This error's {@link #code()}. */
        public static final String CODE = "process.spawn_failed";

        /** Validates the error. */
        public SpawnFailed {
            Objects.requireNonNull(message, "message");
        }
    }

    /** Reading from or writing to the process failed. */
    record Io(String message) implements ProcessBoundaryError {
        /** This error's {@link #code()}. */
        public static final String CODE = "process.io";

        /** Validates the error. */
        public Io {
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * The expected output did not arrive within {@code timeoutMs} (0 for a timeout under a millisecond); the
     * process tree was killed.
     */
    record Timeout(long timeoutMs) implements ProcessBoundaryError {
        /** This error's {@link #code()}. */
        public static final String CODE = "process.timeout";

        @Override
        public String message() {
            return timeoutMs == 0 ? "the process did not answer within its timeout (under 1 ms)"
                    : "the process did not answer within " + timeoutMs + " ms";
        }
    }

    /** The process closed its stdout before writing a single byte. */
    record EmptyOutput() implements ProcessBoundaryError {
        /** This error's {@link #code()}. */
        public static final String CODE = "process.empty_output";

        @Override
        public String message() {
            return "the process exited without writing a line to stdout";
        }
    }

    /** A stdout line was longer than {@code limit} bytes. */
    record LineTooLong(int limit) implements ProcessBoundaryError {
        /** This error's {@link #code()}. */
        public static final String CODE = "process.line_too_long";

        @Override
        public String message() {
            return "the process wrote a stdout line longer than " + limit + " bytes";
        }
    }

    /** The process exited on its own while the runtime still needed it. */
    record Exited(int exitCode, String stderrTail) implements ProcessBoundaryError {
        /** This error's {@link #code()}. */
        public static final String CODE = "process.exited";

        /** Validates the error. */
        public Exited {
            Objects.requireNonNull(stderrTail, "stderrTail");
        }

        @Override
        public String message() {
            return "the process exited with code " + exitCode
                    + (stderrTail.isBlank() ? "" : " (stderr: " + stderrTail.strip() + ")");
        }
    }

    /** The caller cancelled the call; the process tree was stopped. */
    record Cancelled() implements ProcessBoundaryError {
        /** This error's {@link #code()}. */
        public static final String CODE = "process.cancelled";

        @Override
        public String message() {
            return "the call was cancelled and the process was stopped";
        }
    }
}
