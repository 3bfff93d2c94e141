package org.metaruntime.supervisor.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.supervisor.OversizedLine;
import org.metaruntime.supervisor.ProcessListener;

/**
 * Reads a child's stdout to end of file on one thread: frames it into lines with a {@link LineFramer} (UTF-8,
 * size limit) and hands each to the listener, then {@link ProcessListener#onStdoutClosed()} (after
 * {@link ProcessListener#onStdoutError} when reading failed); {@link #done()} completes last. The listener should
 * be guarded: an exception it throws ends the reading.
 */
public final class StdoutReader implements Runnable {


    private final InputStream stdout;
    private final int maxLineBytes;
    private final ProcessListener listener;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    /** A reader of {@code stdout} delivering lines of at most {@code maxLineBytes} bytes to {@code listener}. */
    public StdoutReader(InputStream stdout, int maxLineBytes, ProcessListener listener) {
        this.stdout = Objects.requireNonNull(stdout, "stdout");
        this.maxLineBytes = maxLineBytes;
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Completes once stdout reached end of file (or failed) and the listener was told. */
    public CompletableFuture<Void> done() {
        return done;
    }

    @Override
    public void run() {
        LineFramer framer = new LineFramer(maxLineBytes, new LineFramer.Sink() {
            @Override
            public void line(String line) {
                listener.onLine(line);
            }

            @Override
            public void tooLong(int limit) {
                listener.onLineTooLong(limit);
            }

            @Override
            public void skipped(long length, byte[] head) {
                listener.onOversizedLine(new OversizedLine(maxLineBytes, length,
                        new String(head, StandardCharsets.UTF_8)));
            }
        });
        try (InputStream in = stdout) {
            // No buffer of its own while the child is quiet: see PipeReads.
            PipeReads.readToEnd(in, (bytes, count) -> framer.feed(bytes, 0, count));
            framer.finish();
        } catch (IOException e) {
            listener.onStdoutError(e);
        } finally {
            listener.onStdoutClosed();
            done.complete(null);
        }
    }
}
