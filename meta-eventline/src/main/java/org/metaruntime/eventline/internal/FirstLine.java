package org.metaruntime.eventline.internal;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.supervisor.ProcessListener;

/**
 * A {@link ProcessListener} that keeps only what happened first on stdout: the first line, an over-long
 * line, a read error or end of file. Everything after that is dropped, so a child that keeps writing
 * costs nothing but the process layer's bounded framing. Thread-safe: the process layer calls it on the
 * child's stdout thread; {@link #outcome()} completes there.
 */
public final class FirstLine implements ProcessListener {

    /** What came first on stdout. */
    public sealed interface Outcome {
        /** The first line, without its terminator. */
        record Line(String line) implements Outcome {
        }

        /** The first line exceeded {@code limit} bytes. */
        record TooLong(int limit) implements Outcome {
        }

        /** Reading stdout failed before a line arrived. */
        record ReadFailed(IOException cause) implements Outcome {
        }

        /** Stdout reached end of file before a line arrived. */
        record Closed() implements Outcome {
        }
    }

    private final CompletableFuture<Outcome> first = new CompletableFuture<>();

    @Override
    public void onLine(String line) {
        first.complete(new Outcome.Line(line));
    }

    @Override
    public void onLineTooLong(int limit) {
        first.complete(new Outcome.TooLong(limit));
    }

    @Override
    public void onStdoutError(IOException e) {
        first.complete(new Outcome.ReadFailed(e));
    }

    @Override
    public void onStdoutClosed() {
        first.complete(new Outcome.Closed());
    }

    /** Completes with the first outcome, on the child's stdout thread (or at once if it is known). */
    public CompletableFuture<Outcome> outcome() {
        return first;
    }
}
