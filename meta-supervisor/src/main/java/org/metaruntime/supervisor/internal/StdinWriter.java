package org.metaruntime.supervisor.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of a child's stdin. {@link #offer(byte[])} numbers a line, queues it and returns at once; a
 * task on a shared pool writes the queue out and ends as soon as the queue is empty, so an idle child holds no
 * writer thread. The queue is bounded by bytes: an offer that would exceed the bound is refused, so a child that
 * stops reading its stdin can hold at most the bound in memory and can never block a caller.
 *
 * <p>One exception to the queue: a line is written on the offering thread, without a hand-off to the writer task,
 * when nothing waits and the pipe surely has room for it. The caller tells which lines the child has read with
 * {@link #acknowledge(long)} (for example, the child answered that line: a pipe is read in order, so every line
 * before it was read too). The bytes of the lines written after the last one acknowledged are all the pipe can
 * hold unread; when they and the new line come to at most {@link #PIPE_BUF} bytes, the least a pipe holds, the
 * write cannot block. So a child that answers while more requests are in flight still gets each one straight
 * from the caller's thread. A caller that never acknowledges has every line written by the task. Thread-safe.
 */
public final class StdinWriter {

    /**
     * The most bytes a pipe always holds (POSIX {@code PIPE_BUF}; the least capacity of a pipe on Linux): a write is
     * inline only while the unread lines and it come to no more.
     */
    public static final int PIPE_BUF = 4096;

    /** The most lines after the last one acknowledged whose sizes are kept; past it, nothing is inline until all are read. */
    private static final int MAX_UNREAD_LINES = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(StdinWriter.class);

    private final String moduleId;
    private final OutputStream stdin;
    private final Executor pool;
    private final long maxQueuedBytes;
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    private long queuedBytes;
    private long offered; // the number of the last line offered
    private long acknowledged = -1; // every line up to this number has been read; -1: nothing inline until told
    /** The number and size of each line offered after {@link #acknowledged}, while {@link #counting}. */
    private final ArrayDeque<long[]> unread = new ArrayDeque<>();
    private long unreadBytes; // the sum of the sizes in unread
    private boolean counting; // unread holds every line after acknowledged (false until told, or when it grew too long)
    private boolean writing;
    private boolean closeRequested;
    private boolean closed;

    public StdinWriter(String moduleId, OutputStream stdin, Executor pool, long maxQueuedBytes) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.stdin = Objects.requireNonNull(stdin, "stdin");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /**
     * Queues one line's bytes for the child and returns the line's number (1, 2, … in the order lines reach the
     * child). Never blocks.
     *
     * @throws ProcessBoundaryException with {@link ProcessBoundaryError.Io} when stdin is closed (by
     *                                  {@link #close()}) or writing to it failed, or the queue bound would be exceeded
     */
    public long offer(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        long number;
        boolean inline;
        synchronized (this) {
            if (closeRequested || closed) {
                throw ioError("cannot write to stdin: it is closed");
            }
            if (queuedBytes + bytes.length > maxQueuedBytes) {
                throw ioError("cannot write to stdin: " + queuedBytes + " bytes already wait to be read and "
                        + bytes.length + " more would exceed the limit of " + maxQueuedBytes + " bytes");
            }
            number = ++offered;
            countUnread(number, bytes.length);
            inline = !writing && counting && unreadBytes <= PIPE_BUF; // unreadBytes counts this line too
            if (!inline) {
                queue.add(bytes);
                queuedBytes += bytes.length;
                if (writing) {
                    return number;
                }
            }
            writing = true;
        }
        if (inline) {
            writeInline(bytes);
        } else {
            pool.execute(this::drain);
        }
        return number;
    }

    /** The child has read every line up to {@code number} (for example, it answered that line). */
    public synchronized void acknowledge(long number) {
        if (number < 1 || number > offered || number <= acknowledged) {
            return;
        }
        acknowledged = number;
        while (!unread.isEmpty() && unread.peek()[0] <= number) {
            unreadBytes -= unread.poll()[1];
        }
        if (acknowledged == offered) {
            counting = true; // nothing is unread: the count starts again from here
        }
    }

    /** Counts line {@code number} of {@code size} bytes as unread; holds the lock. */
    private void countUnread(long number, int size) {
        if (!counting) {
            return;
        }
        if (unread.size() == MAX_UNREAD_LINES) {
            counting = false;
            unread.clear();
            unreadBytes = 0;
            return;
        }
        unread.add(new long[] {number, size});
        unreadBytes += size;
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

    private void writeInline(byte[] bytes) {
        try {
            stdin.write(bytes);
            stdin.flush();
        } catch (IOException e) {
            fail(e);
            return;
        }
        synchronized (this) {
            if (queue.isEmpty() && !closeRequested) {
                writing = false;
                return;
            }
        }
        pool.execute(this::drain); // lines offered meanwhile, or a close: the writer task takes them over
    }

    private ProcessBoundaryException ioError(String message) {
        return new ProcessBoundaryException(moduleId, new ProcessBoundaryError.Io(message));
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
