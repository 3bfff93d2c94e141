package org.metaruntime.eventline;

import java.util.Objects;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.supervisor.ModuleError;
import org.metaruntime.supervisor.ProcessBoundaryError;

/**
 * Why an event-line run or startup attempt failed: either the process boundary (spawn, read, timeout,
 * empty output, over-long line) or the normalisation of the first line. Its {@link #message()} is one readable
 * sentence (without the module id), its {@link #code()} the wrapped error's. An immutable value (thread-safe);
 * the two cases map one to one onto the runtime's {@code RuntimeBoundaryError.Process} and
 * {@code RuntimeBoundaryError.Normalize}.
 *
 * <pre>{@code
 * try {
 *     runner.runOnce(spec, Duration.ofSeconds(5));
 * } catch (EventLineException e) {
 *     if (e.error() instanceof EventLineError.Process p
 *             && p.error() instanceof ProcessBoundaryError.Timeout t) {
 *         log.warn("module {} timed out after {} ms", e.moduleId(), t.timeoutMs());
 *     }
 * }
 * }</pre>
 */
public sealed interface EventLineError extends ModuleError {

    /** The process boundary failed: spawn, read, timeout, empty output or an over-long line. */
    record Process(ProcessBoundaryError error) implements EventLineError, ModuleError.Wrapper {
        /** Validates the error. */
        public Process {
            Objects.requireNonNull(error, "error");
        }
    }

    /** The first line arrived but is not a valid event. */
    record Normalize(NormalizationError error) implements EventLineError {
        /** Validates the error. */
        public Normalize {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public String message() {
            return "the first stdout line is not a valid event: " + error.message();
        }

        /** The normalisation error's code. */
        @Override
        public String code() {
            return error.code();
        }
    }
}
