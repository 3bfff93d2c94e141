package org.metaruntime.supervisor.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of a child's stdin. {@link #offer(byte[])} queues bytes and returns at once; a task on a
 * shared pool writes the queue out and ends as soon as the queue is empty, so an idle child holds no writer
 * thread. The queue is bounded by bytes: an offer that would exceed the bound is refused, so a child that
 * stops reading its stdin can hold at most the bound in memory and can never block a caller.
 * Thread-safe.
 */
public final class StdinWriter {

    /** Why an offer was refused. */
    public enum Refusal {
        /** Stdin was closed (by {@link #close()}) or writing to it failed. */
        CLOSED,
        /** The queue bound would be exceeded. */
        QUEUE_FULL
    }

    private static final Logger LOG = LoggerFactory.getLogger(StdinWriter.class);

    private final String moduleId;
    private final OutputStream stdin;
    private final Executor pool;
    private final long maxQueuedBytes;
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    private long queuedBytes;
    private boolean writing;
    private boolean closeRequested;
    private boolean closed;

    public StdinWriter(String moduleId, OutputStream stdin, Executor pool, long maxQueuedBytes) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.stdin = Objects.requireNonNull(stdin, "stdin");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /** Queues bytes for the child; returns null when queued, else why not. Never blocks. */
    public Refusal offer(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        synchronized (this) {
            if (closeRequested || closed) {
                return Refusal.CLOSED;
            }
            if (queuedBytes + bytes.length > maxQueuedBytes) {
                return Refusal.QUEUE_FULL;
            }
            queue.add(bytes);
            queuedBytes += bytes.length;
            if (writing) {
                return null;
            }
            writing = true;
        }
        pool.execute(this::drain);
        return null;
    }

    /** Closes stdin once the queued bytes are written. Never blocks; idempotent. */
    public void close() {
        synchronized (this) {
            if (closeRequested) {
                return;
            }
            closeRequested = true;
            if (writing) {
                return;
            }
            writing = true;
        }
        pool.execute(this::drain);
    }

    /** Bytes queued and not yet written. */
    public synchronized long queuedBytes() {
        return queuedBytes;
    }

    /** True once stdin is closed or writing to it failed. */
    public synchronized boolean isClosed() {
        return closed;
    }

    private void drain() {
        while (true) {
            byte[] next;
            boolean closeNow = false;
            synchronized (this) {
                next = queue.poll();
                if (next == null) {
                    closeNow = closeRequested && !closed;
                    closed |= closeNow;
                    writing = false;
                }
            }
            if (next == null) {
                if (closeNow) {
                    // Everything was flushed and no other thread writes: close cannot block.
                    closeQuietly();
                }
                return;
            }
            try {
                stdin.write(next);
                boolean empty;
                synchronized (this) {
                    queuedBytes -= next.length;
                    empty = queue.isEmpty();
                }
                if (empty) {
                    stdin.flush();
                }
            } catch (IOException e) {
                fail(e);
                return;
            }
        }
    }

    private void fail(IOException e) {
        synchronized (this) {
            closed = true;
            queue.clear();
            queuedBytes = 0;
            writing = false;
        }
        LOG.debug("module '{}': writing stdin failed: {}", moduleId, e.toString());
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            stdin.close();
        } catch (IOException e) {
            LOG.debug("module '{}': closing stdin failed: {}", moduleId, e.toString());
        }
    }
}
