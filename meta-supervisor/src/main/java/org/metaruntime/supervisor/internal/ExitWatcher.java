package org.metaruntime.supervisor.internal;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.internal.proc.ProcessTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sees a child's exit and reports it once, after its pipes closed.
 *
 * <ul>
 *   <li>The exit is seen by the reader that saw the last end of file ({@link #pipeClosed()}: a child usually
 *       closes its pipes by exiting, so that reader waits at most {@value #EXIT_WATCH_MS} ms for the exit), or by
 *       a look every {@value #EXIT_WATCH_MS} ms on the timer, from {@value #EXIT_WATCH_MS} ms after
 *       {@link #start()} (its pipes may outlive it, held by a descendant). Whichever sees it first handles it. One
 *       look checks every child watched (a read of what the JDK's reaper, or the launcher's exit report,
 *       recorded: no system call), so a thousand exits at once start no thread; {@link Process#onExit()} would
 *       start one per exit on a host with two cores or fewer.</li>
 *   <li>Once the child has exited, the watcher waits up to the drain timeout for stdout and stderr to reach end
 *       of file, then kills whatever is left of its tree (descendants, re-parented ones included), unless a stop
 *       is running ({@link #stopStarted()}), whose ladder owns the tree: a descendant holding the pipes can then
 *       keep neither a reader thread nor itself alive. Then the exit is reported once the pipes are closed, or
 *       {@value #PIPE_CLOSE_WAIT_MS} ms later.</li>
 * </ul>
 * Thread-safe.
 */
public final class ExitWatcher {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleProcess.class);
    /** After the leftovers of an exited process were killed, how long its pipes get to close. */
    private static final long PIPE_CLOSE_WAIT_MS = 1000;
    /**
     * How long the reader that saw the last end of file waits for the exit, and how long after the spawn
     * {@link Process#onExit()} starts to watch it too.
     */
    private static final long EXIT_WATCH_MS = 100;
    /** The children whose exit the timer looks for: alive when last looked at, their exit not handled yet. */
    private static final Set<ExitWatcher> WATCHED = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean LOOKING = new AtomicBoolean();

    private final String moduleId;
    private final Process process;
    private final ProcessTree tree;
    private final Duration drainTimeout;
    private final CompletableFuture<Void> pipesClosed;
    private final Supplier<String> stderrTail;
    private final Consumer<ProcessExit> onExit;
    private final CompletableFuture<Process> exited = new CompletableFuture<>();
    private final AtomicInteger openPipes = new AtomicInteger(2);
    private final AtomicBoolean exitHandled = new AtomicBoolean();
    private final AtomicBoolean exitDelivered = new AtomicBoolean();
    private volatile ScheduledFuture<?> exitWatch;
    private volatile boolean stopping;
    private volatile boolean requested;

    /**
     * @param stdoutDone   completes when stdout reached end of file
     * @param stderrDone   completes when stderr reached end of file
     * @param drainTimeout how long the pipes get to close after the exit before the tree's leftovers are killed
     * @param stderrTail   the stderr tail at the time of the report
     * @param onExit       told the exit once, on whichever thread ends the wait; it must not block
     */
    public ExitWatcher(String moduleId, Process process, ProcessTree tree, Duration drainTimeout,
                       CompletableFuture<Void> stdoutDone, CompletableFuture<Void> stderrDone,
                       Supplier<String> stderrTail, Consumer<ProcessExit> onExit) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.process = Objects.requireNonNull(process, "process");
        this.tree = Objects.requireNonNull(tree, "tree");
        this.drainTimeout = Objects.requireNonNull(drainTimeout, "drainTimeout");
        this.pipesClosed = CompletableFuture.allOf(stdoutDone, stderrDone);
        this.stderrTail = Objects.requireNonNull(stderrTail, "stderrTail");
        this.onExit = Objects.requireNonNull(onExit, "onExit");
    }

    /** Starts looking for the exit in {@value #EXIT_WATCH_MS} ms, then every {@value #EXIT_WATCH_MS} ms. */
    public void start() {
        exitWatch = SharedTimer.timer().schedule(() -> {
            if (!exitHandled.get()) {
                WATCHED.add(this);
                scheduleLook();
            }
        }, EXIT_WATCH_MS, TimeUnit.MILLISECONDS);
    }

    private static void scheduleLook() {
        if (!WATCHED.isEmpty() && LOOKING.compareAndSet(false, true)) {
            SharedTimer.timer().schedule(ExitWatcher::look, EXIT_WATCH_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** One look at every watched child, on the timer; the next one is scheduled while any is left. */
    private static void look() {
        try {
            for (ExitWatcher watcher : WATCHED) {
                if (watcher.exitHandled.get()) {
                    WATCHED.remove(watcher);
                } else if (!watcher.process.isAlive()) {
                    WATCHED.remove(watcher);
                    watcher.handleExit();
                }
            }
        } finally {
            // Cleared before the emptiness check: a child added meanwhile either is seen by it or schedules.
            LOOKING.set(false);
            scheduleLook();
        }
    }

    /** Completes when the exit has been seen (before the pipes are drained and before it is reported). */
    public CompletableFuture<Process> exited() {
        return exited;
    }

    /**
     * A stop of the child began: its ladder owns the tree from now on, and an exit of a child still alive now
     * counts as requested by the runtime.
     */
    public void stopStarted() {
        if (process.isAlive()) {
            requested = true;
        }
        stopping = true;
    }

    /**
     * Called by each of the two reader threads (stdout, stderr) after its pipe reached end of file. The one that
     * saw the last end of file waits at most {@value #EXIT_WATCH_MS} ms for the exit and handles it at once, on
     * its thread; a child that lives on is left to the timer's looks.
     */
    public void pipeClosed() {
        if (openPipes.decrementAndGet() != 0) {
            return;
        }
        try {
            if (process.waitFor(EXIT_WATCH_MS, TimeUnit.MILLISECONDS)) {
                handleExit();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handleExit() {
        if (!exitHandled.compareAndSet(false, true)) {
            return;
        }
        WATCHED.remove(this);
        ScheduledFuture<?> watch = exitWatch;
        if (watch != null) {
            watch.cancel(false);
        }
        try {
            onProcessExit();
        } catch (RuntimeException e) {
            LOG.error("module '{}': handling the exit of pid {} failed", moduleId, process.pid(), e);
            deliver(process.exitValue(), requested);
        }
    }

    /**
     * Waits for the pipes to close (at most the drain timeout), then reclaims what is left of the tree, then
     * reports the exit once the pipes are closed (or a second later). Whatever ends the wait runs the rest at
     * once: the thread that saw the exit when the pipes are already closed (the usual case), the timer when the
     * drain times out, else the reader thread that saw the last end of file.
     */
    private void onProcessExit() {
        long exitSeen = System.nanoTime();
        exited.complete(process);
        int exitCode = process.exitValue();
        boolean wasRequested = requested;
        CompletableFuture<Void> drained = new CompletableFuture<>();
        if (!pipesClosed.isDone()) {
            ScheduledFuture<?> drainTimeoutTask = SharedTimer.timer().schedule(() -> drained.complete(null),
                    drainTimeout.toNanos(), TimeUnit.NANOSECONDS);
            drained.thenRun(() -> drainTimeoutTask.cancel(false));
        }
        pipesClosed.thenRun(() -> drained.complete(null));
        drained.thenRun(() -> {
            reclaimLeftovers(exitSeen, pipesClosed.isDone());
            pipesClosed.thenRun(() -> deliver(exitCode, wasRequested));
            if (!pipesClosed.isDone()) {
                SharedTimer.timer().schedule(() -> {
                    if (!pipesClosed.isDone()) {
                        // A fresh look: a process forked just before the exit may have been missed.
                        reclaimLeftovers(System.nanoTime(), false);
                        LOG.warn("module '{}': stdout or stderr of pid {} is still open {} ms after its exit",
                                moduleId, process.pid(), drainTimeout.toMillis() + PIPE_CLOSE_WAIT_MS);
                    }
                    deliver(exitCode, wasRequested);
                }, PIPE_CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
            }
        });
    }

    /**
     * Kills the processes the exited child left behind (descendants, re-parented or not), unless a stop is
     * running. They may hold the pipes (and keep a reader thread and end of file waiting), and even if they do
     * not, nothing else would ever stop them once their parent is gone. End of file alone does not prove they let
     * go: the JVM closes its end of a pipe when the child exits.
     */
    private void reclaimLeftovers(long exitSeenNanos, boolean closed) {
        if (stopping) {
            return;
        }
        try {
            List<ProcessHandle> leftovers = tree.aliveAfterExit(exitSeenNanos);
            if (!leftovers.isEmpty()) {
                LOG.warn("module '{}': pid {} exited and left {} process(es) of its tree alive{}; killing them",
                        moduleId, process.pid(), leftovers.size(), closed ? "" : " (its stdout or stderr still open)");
                leftovers.forEach(ProcessHandle::destroyForcibly);
            }
        } catch (RuntimeException e) {
            LOG.error("module '{}': could not reclaim the tree of pid {}", moduleId, process.pid(), e);
        }
    }

    private void deliver(int exitCode, boolean wasRequested) {
        if (!exitDelivered.compareAndSet(false, true)) {
            return;
        }
        LOG.debug("module '{}': pid {} exited with code {}", moduleId, process.pid(), exitCode);
        onExit.accept(new ProcessExit(moduleId, process.pid(), exitCode, stderrTail.get(), wasRequested));
    }
}
