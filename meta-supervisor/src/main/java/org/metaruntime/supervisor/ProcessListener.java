package org.metaruntime.supervisor;

import java.io.IOException;

/**
 * Receives a child's output and its exit. {@link #onLine}, {@link #onLineTooLong}, {@link #onOversizedLine},
 * {@link #onStdoutError} and {@link #onStdoutClosed} are called in order on the child's stdout thread
 * ({@code meta-<moduleId>-stdout}); {@link #onExit} is called once on a shared runtime thread
 * ({@code meta-supervisor-exit-N}), normally after {@link #onStdoutClosed}.
 *
 * <p>Implementations must be fast and must not throw: a listener that throws is caught and logged and never
 * hurts the runtime (the next line is still delivered), but a slow listener holds up the child's stdout and
 * so, once the pipe is full, the child itself.
 *
 * <pre>{@code
 * ProcessListener listener = line -> responses.add(line);
 * }</pre>
 */
@FunctionalInterface
public interface ProcessListener {

    /**
     * One stdout line: the bytes before {@code \n} (a trailing {@code \r} dropped) decoded as UTF-8.
     * Malformed UTF-8 is never an error: each malformed byte sequence becomes U+FFFD, as
     * {@link java.nio.charset.CodingErrorAction#REPLACE} does. A last line without {@code \n} is delivered
     * at end of file.
     */
    void onLine(String line);

    /**
     * A line exceeded {@code limit} bytes; its bytes were discarded up to the next {@code \n} and it will not
     * be delivered. Called as soon as the limit is crossed, once per such line.
     */
    default void onLineTooLong(int limit) {
    }

    /**
     * The end of a line that exceeded the limit: its length and its first bytes (see {@link OversizedLine}).
     * Called once per such line, after {@link #onLineTooLong}, when its {@code \n} arrives or stdout ends.
     */
    default void onOversizedLine(OversizedLine line) {
    }

    /** End of file on stdout; also called after a read error (reported first via {@link #onStdoutError}). */
    default void onStdoutClosed() {
    }

    /** Reading stdout failed; {@link #onStdoutClosed()} follows. */
    default void onStdoutError(IOException e) {
    }

    /** Called once, after the process exited (and normally after its stdout and stderr were read to the end). */
    default void onExit(ProcessExit exit) {
    }
}
