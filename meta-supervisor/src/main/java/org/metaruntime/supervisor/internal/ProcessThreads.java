package org.metaruntime.supervisor.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads the process layer shares between all children. Every thread is named and daemon, and exists
 * only while it has work: idle threads end after a few seconds, so an idle runtime holds none of them.
 * Thread-safe.
 *
 * <ul>
 *   <li>{@link #readers()} ({@code meta-supervisor-reader-N}): reads children's stdout and stderr, one task per
 *       pipe for as long as the pipe is open. While it serves a child, a thread is named after it
 *       ({@code meta-<moduleId>-stdout}, {@code meta-<moduleId>-stderr}; see {@link #named}); reusing threads
 *       spares every spawn the cost of starting two.</li>
 *   <li>{@link #stdinWriters()} ({@code meta-supervisor-stdin-N}): writes queued lines to children's stdin;
 *       at most one task per child at a time, and only while that child has something to write.</li>
 *   <li>{@link #callbacks()} ({@code meta-supervisor-exit-N}): delivers exits and completes futures, so that
 *       a listener or a dependent stage never runs on the timer or the common pool.</li>
 *   <li>The timer of the stop ladder, the exit drain and the looks for the exit of children whose pipes may
 *       outlive them is the library's one {@link SharedTimer}.</li>
 * </ul>
 */
public final class ProcessThreads {

    private static final long KEEP_ALIVE_SECONDS = 5;

    private static final ExecutorService READERS = cachedPool("meta-supervisor-reader-");
    private static final ExecutorService STDIN_WRITERS = cachedPool("meta-supervisor-stdin-");
    private static final ExecutorService CALLBACKS = cachedPool("meta-supervisor-exit-");

    private ProcessThreads() {
    }

    /** The shared pool that reads children's stdout and stderr; see {@link #named}. */
    public static ExecutorService readers() {
        return READERS;
    }

    /**
     * {@code task}, run on a thread named {@code name} for its duration: the thread gets its pool name back
     * when the task ends, so that a thread named after a child exists only while it serves that child.
     */
    public static Runnable named(String name, Runnable task) {
        return () -> {
            Thread thread = Thread.currentThread();
            String poolName = thread.getName();
            thread.setName(name);
            try {
                task.run();
            } finally {
                thread.setName(poolName);
            }
        };
    }

    /** The shared pool that writes to children's stdin. */
    public static ExecutorService stdinWriters() {
        return STDIN_WRITERS;
    }

    /** The shared pool that runs exit listeners and completes futures. */
    public static ExecutorService callbacks() {
        return CALLBACKS;
    }

    private static ExecutorService cachedPool(String prefix) {
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
                new SynchronousQueue<>(), DaemonThreads.numbered(prefix));
    }
}
