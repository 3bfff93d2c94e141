package org.metaruntime.mcp.internal;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.mcp.McpConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the tasks given to it one at a time, in the order given, without a thread of its own: a task runs on the
 * thread that gives it when the lane is idle, else on the thread already draining the lane, after the tasks
 * before it. One call's progress updates and its completion go through one lane, so they are seen in order and
 * never by two threads at once. Thread-safe; a task that throws is logged and the next one still runs.
 */
public final class SerialLane {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);

    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();

    /** Runs {@code task} now, or after the tasks already in the lane. */
    public void run(Runnable task) {
        tasks.add(task);
        if (queued.getAndIncrement() != 0) {
            return;
        }
        do {
            Runnable next = tasks.poll();
            try {
                next.run();
            } catch (RuntimeException | Error e) {
                LOG.warn("a listener of an MCP call failed: {}", e.toString());
            }
        } while (queued.decrementAndGet() != 0);
    }
}
