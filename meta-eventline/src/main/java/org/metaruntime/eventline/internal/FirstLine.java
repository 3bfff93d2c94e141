package org.metaruntime.eventline.internal;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.metaruntime.supervisor.ProcessListener;

/**
 * A {@link ProcessListener} that keeps only what happened first on stdout: the first line, an over-long
 * line, a read error or end of file. Everything after that is dropped, so a child that keeps writing
 * costs nothing but the process layer's bounded framing. Thread-safe: the process layer calls it on the
 * child's stdout thread while one caller waits in {@link #await(long)}.
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

    /**
     * Waits until the first outcome or the deadline.
     *
     * @param deadlineNanos a {@link System#nanoTime()} value
     * @return the outcome, or {@code null} when the deadline passed first
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public Outcome await(long deadlineNanos) throws InterruptedException {
        try {
            return first.get(Math.max(0L, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return first.getNow(null);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the first-line future never completes exceptionally", e);
        }
    }
}
