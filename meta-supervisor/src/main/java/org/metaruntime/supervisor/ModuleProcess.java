package org.metaruntime.supervisor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.metaruntime.supervisor.internal.GuardedListener;
import org.metaruntime.supervisor.internal.HostWatchdog;
import org.metaruntime.supervisor.internal.LineFramer;
import org.metaruntime.supervisor.internal.PipeReads;
import org.metaruntime.supervisor.internal.ProcessThreads;
import org.metaruntime.supervisor.internal.ProcessTree;
import org.metaruntime.supervisor.internal.StderrDrainer;
import org.metaruntime.supervisor.internal.StderrTail;
import org.metaruntime.supervisor.internal.StdinWriter;
import org.metaruntime.supervisor.internal.StopSequence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One live child process owned by the runtime. Thread-safe.
 *
 * <ul>
 *   <li><b>Spawn.</b> From the argv (no shell), in the spec's working directory, with the environment described
 *       in {@link ProcessSpec}; never with inherited stdio. The environment also carries
 *       {@value ProcessSpec#TOKEN_ENV}{@code =<unique token>}, which the child's descendants inherit.</li>
 *   <li><b>Stdout</b> is read on the thread {@code meta-<moduleId>-stdout}, framed on bytes into lines, decoded
 *       as UTF-8 and handed to the {@link ProcessListener} (see there for the UTF-8 policy and the line
 *       limit).</li>
 *   <li><b>Stderr</b> is drained from the first moment on the thread {@code meta-<moduleId>-stderr} into a
 *       bounded tail ({@link #stderrTail()}) and logged line by line.</li>
 *   <li><b>Stdin</b> has a single writer: {@link #send(String)} queues and returns; the bytes are written on a
 *       shared pool ({@code meta-supervisor-stdin-N}) only while there is something to write.</li>
 *   <li><b>Exit</b> is seen by the reader that saw the last end of file (a child usually closes its pipes by
 *       exiting), or by {@link Process#onExit()}, which watches a child from 100 ms after its spawn (its pipes
 *       may outlive it). Once the process has exited, the runtime waits up to
 *       {@link ProcessSpec#exitDrainTimeout()} for stdout and stderr to reach end of file, then kills whatever
 *       is left of its tree (descendants, re-parented ones included, found through the token; see
 *       {@link #stop(StopLadder)}), unless a stop is running: a descendant holding the pipes can then keep
 *       neither a reader thread nor itself alive. Then {@link ProcessListener#onExit} is called and
 *       {@link #exitFuture()} completes.</li>
 * </ul>
 * A live child occupies two threads (its stdout reader and stderr drainer) of a shared pool while its pipes are
 * open.
 *
 * <pre>{@code
 * ProcessSpec spec = ProcessSpec.builder("echo").command("python3", "echo.py").build();
 * try (ModuleProcess process = ModuleProcess.start(spec, line -> System.out.println("got " + line))) {
 *     process.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
 *     ...
 * } // close(): the stop ladder with its default graces
 * }</pre>
 */
public final class ModuleProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleProcess.class);
    /** After the leftovers of an exited process were killed, how long its pipes get to close. */
    private static final long PIPE_CLOSE_WAIT_MS = 1000;
    /**
     * How long the reader that saw the last end of file waits for the exit, and how long after the spawn
     * {@link Process#onExit()} starts to watch it too.
     */
    private static final long EXIT_WATCH_MS = 100;

    private final ProcessSpec spec;
    private final Process process;
    private final ProcessListener listener;
    private final ProcessTree tree;
    private final StdinWriter stdin;
    private final StderrTail stderrTail;
    private final StderrDrainer stderrDrainer;
    private final CompletableFuture<Void> stdoutDone = new CompletableFuture<>();
    private final CompletableFuture<Process> exited = new CompletableFuture<>();
    private final CompletableFuture<ProcessExit> exitFuture = new CompletableFuture<>();
    private final AtomicInteger openPipes = new AtomicInteger(2);
    private final AtomicBoolean exitHandled = new AtomicBoolean();
    private volatile ScheduledFuture<?> exitWatch;
    private final AtomicBoolean exitDelivered = new AtomicBoolean();
    private final AtomicReference<CompletableFuture<StopReport>> stop = new AtomicReference<>();
    private volatile boolean stopRequested;

    private ModuleProcess(ProcessSpec spec, Process process, String token, ProcessTree.SpawnMark beforeSpawn,
                          ProcessListener listener) {
        this.spec = spec;
        this.process = process;
        this.listener = new GuardedListener(spec.moduleId(), listener);
        this.tree = new ProcessTree(process.toHandle(), token, beforeSpawn);
        this.stdin = new StdinWriter(spec.moduleId(), process.getOutputStream(), ProcessThreads.stdinWriters(),
                spec.stdinQueueBytes());
        this.stderrTail = new StderrTail(spec.stderrTailBytes());
        this.stderrDrainer = new StderrDrainer(spec.moduleId(), process.getErrorStream(), stderrTail);
    }

    /**
     * Spawns the module's process and starts reading its output.
     *
     * @throws ProcessBoundaryException with {@link ProcessBoundaryError.SpawnFailed} when the process cannot be
     *                                  started (missing executable, bad working directory, ...); the message
     *                                  names the command
     */
    public static ModuleProcess start(ProcessSpec spec, ProcessListener listener) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(listener, "listener");
        Path workdir = spec.workdir();
        if (workdir != null && !Files.isDirectory(workdir)) {
            throw spawnFailed(spec, "working directory " + workdir + " is not a directory", null);
        }
        ProcessBuilder builder = new ProcessBuilder(spec.command())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.PIPE);
        if (workdir != null) {
            builder.directory(workdir.toFile());
        }
        String token = UUID.randomUUID().toString();
        Map<String, String> env = builder.environment();
        if (!spec.inheritEnv()) {
            env.clear();
            for (String name : spec.passThroughEnv()) {
                String value = System.getenv(name);
                if (value != null) {
                    env.put(name, value);
                }
            }
        }
        env.putAll(spec.env());
        env.put(ProcessSpec.TOKEN_ENV, token);
        env.put(ProcessSpec.HOST_TOKEN_ENV, HostWatchdog.hostToken());
        HostWatchdog.ensureStarted();
        ProcessTree.SpawnMark beforeSpawn = ProcessTree.beforeSpawn();
        Process process;
        try {
            process = builder.start();
        } catch (IOException | RuntimeException e) {
            throw spawnFailed(spec, e.getMessage(), e);
        }
        ModuleProcess started = new ModuleProcess(spec, process, token, beforeSpawn, listener);
        try {
            started.begin();
        } catch (RuntimeException | OutOfMemoryError e) {
            process.destroyForcibly();
            throw spawnFailed(spec, "could not start its reader threads: " + e, e);
        }
        LOG.debug("module '{}': started pid {}: {}", spec.moduleId(), process.pid(), spec.command());
        return started;
    }

    private static ProcessBoundaryException spawnFailed(ProcessSpec spec, String reason, Throwable cause) {
        String where = spec.workdir() == null ? "" : " in " + spec.workdir();
        return new ProcessBoundaryException(spec.moduleId(),
                new ProcessBoundaryError.SpawnFailed("cannot start " + spec.command() + where + ": " + reason), cause);
    }

    private void begin() {
        String prefix = "meta-" + spec.moduleId() + "-";
        ProcessThreads.readers().execute(ProcessThreads.named(prefix + "stderr", () -> {
            stderrDrainer.run();
            pipeClosed();
        }));
        ProcessThreads.readers().execute(ProcessThreads.named(prefix + "stdout", () -> {
            readStdout();
            pipeClosed();
        }));
        // Process.onExit() runs its stage on a thread of the common pool, or on a new thread per exit where that
        // pool has a single worker (two CPUs or fewer). A short-lived child has its exit handled by its last
        // reader (pipeClosed) and never pays for it; onExit() watches only children that live longer, and those
        // whose pipes outlive them (held by a descendant). The stage is handed to the runtime's timer.
        exitWatch = ProcessThreads.timer().schedule(() -> {
            if (!exitHandled.get()) {
                process.onExit().whenCompleteAsync((p, error) -> handleExit(), ProcessThreads.timer());
            }
        }, EXIT_WATCH_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * On a reader thread, after its pipe reached end of file. A child usually closes its pipes by exiting, so
     * the reader that saw the last end of file waits briefly (at most {@value #EXIT_WATCH_MS} ms) for the exit
     * and handles it at once, on this thread, as a bare {@link Process#waitFor()} would see it; a child that
     * lives on is left to {@link Process#onExit()}.
     */
    private void pipeClosed() {
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

    /** Once the process has exited, from whichever path sees it first; the other does nothing. */
    private void handleExit() {
        if (!exitHandled.compareAndSet(false, true)) {
            return;
        }
        ScheduledFuture<?> watch = exitWatch;
        if (watch != null) {
            watch.cancel(false);
        }
        try {
            onProcessExit();
        } catch (RuntimeException e) {
            LOG.error("module '{}': handling the exit of pid {} failed", moduleId(), pid(), e);
            deliverExit(process.exitValue(), stopRequested);
        }
    }

    /** The module this process belongs to. */
    public String moduleId() {
        return spec.moduleId();
    }

    /** The operating system's process id. */
    public long pid() {
        return process.pid();
    }

    /** True until the process has exited. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Queues {@code line + "\n"} (UTF-8) for the child's stdin and returns at once; the single writer writes
     * queued lines in order. At most {@link ProcessSpec#stdinQueueBytes()} bytes may wait: a send beyond that
     * fails, so a child that does not read its stdin never blocks the caller.
     *
     * @throws IllegalArgumentException if the line contains {@code \n}
     * @throws ProcessBoundaryException with {@link ProcessBoundaryError.Io} when stdin is closed, the process is
     *                                  gone, or the queue is full
     */
    public void send(String line) {
        Objects.requireNonNull(line, "line");
        if (line.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a line sent to module '" + moduleId() + "' must not contain \\n");
        }
        if (!process.isAlive()) {
            throw ioError("cannot write to stdin: the process has exited");
        }
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        StdinWriter.Refusal refusal = stdin.offer(bytes);
        if (refusal == StdinWriter.Refusal.CLOSED) {
            throw ioError("cannot write to stdin: it is closed");
        }
        if (refusal == StdinWriter.Refusal.QUEUE_FULL) {
            throw ioError("cannot write to stdin: " + stdin.queuedBytes() + " bytes already wait to be read and "
                    + bytes.length + " more would exceed the limit of " + spec.stdinQueueBytes() + " bytes");
        }
    }

    private ProcessBoundaryException ioError(String message) {
        return new ProcessBoundaryException(moduleId(), new ProcessBoundaryError.Io(message));
    }

    /** Closes the child's stdin once the queued lines are written (the child sees end of file). Never blocks. */
    public void closeStdin() {
        stdin.close();
    }

    /**
     * Completes once, on a runtime thread, after the process exited (at the same time as
     * {@link ProcessListener#onExit} is called). Each call returns a new dependent future: completing or
     * cancelling it affects nothing else.
     */
    public CompletableFuture<ProcessExit> exitFuture() {
        return exitFuture.copy();
    }

    /** The newest stderr bytes (at most {@link ProcessSpec#stderrTailBytes()}), decoded as UTF-8. */
    public String stderrTail() {
        return stderrTail.text();
    }

    /**
     * Stops the process and its tree with the ladder and blocks until it is done, at most about
     * {@link StopLadder#total()}: close stdin, wait {@code stdinGrace}; snapshot the descendants (including
     * re-parented ones found through the token on Linux) before signalling; SIGTERM the process and each
     * descendant, wait {@code termGrace}; SIGKILL all still alive, wait {@code killWait}; report survivors.
     * Idempotent and safe from several threads: every call returns the report of the first, whose ladder wins.
     * Stopping a process that already exited still stops what is left of its tree.
     */
    public StopReport stop(StopLadder ladder) {
        return stopAsync(ladder).join();
    }

    /** {@link #stop(StopLadder)} without blocking; the future completes on a runtime thread. */
    public CompletableFuture<StopReport> stopAsync(StopLadder ladder) {
        Objects.requireNonNull(ladder, "ladder");
        CompletableFuture<StopReport> report = stop.get();
        if (report == null) {
            CompletableFuture<StopReport> mine = new CompletableFuture<>();
            if (stop.compareAndSet(null, mine)) {
                if (process.isAlive()) {
                    stopRequested = true;
                }
                StopSequence.start(moduleId(), process, tree, stdin::close, exited, ladder, mine);
            }
            report = stop.get();
        }
        return report.copy();
    }

    /** {@code stop(StopLadder.defaults())}. */
    @Override
    public void close() {
        stop(StopLadder.defaults());
    }

    @Override
    public String toString() {
        return "ModuleProcess[" + moduleId() + ", pid " + pid() + (isAlive() ? ", alive]" : ", exited]");
    }

    private void readStdout() {
        LineFramer framer = new LineFramer(spec.maxLineBytes(), new LineFramer.Sink() {
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
                listener.onOversizedLine(new OversizedLine(spec.maxLineBytes(), length,
                        new String(head, StandardCharsets.UTF_8)));
            }
        });
        try (InputStream in = process.getInputStream()) {
            PipeReads.readToEnd(in, (bytes, count) -> framer.feed(bytes, 0, count));
            framer.finish();
        } catch (IOException e) {
            listener.onStdoutError(e);
        } finally {
            listener.onStdoutClosed();
            stdoutDone.complete(null);
        }
    }

    /**
     * Once the process has exited: wait for the pipes to close (at most the drain timeout), then reclaim what is
     * left of the tree, then deliver the exit once the pipes are closed (or a second later). Whatever ends the
     * wait runs the rest at once: the thread that saw the exit when the pipes are already closed (the usual
     * case), the timer when the drain times out, else the reader thread that saw the last end of file.
     */
    private void onProcessExit() {
        long exitSeen = System.nanoTime();
        exited.complete(process);
        int exitCode = process.exitValue();
        boolean requested = stopRequested;
        CompletableFuture<Void> pipesClosed = CompletableFuture.allOf(stdoutDone, stderrDrainer.done());
        CompletableFuture<Void> drained = new CompletableFuture<>();
        if (!pipesClosed.isDone()) {
            ScheduledFuture<?> drainTimeout = ProcessThreads.timer().schedule(() -> drained.complete(null),
                    spec.exitDrainTimeout().toNanos(), TimeUnit.NANOSECONDS);
            drained.thenRun(() -> drainTimeout.cancel(false));
        }
        pipesClosed.thenRun(() -> drained.complete(null));
        drained.thenRun(() -> {
            reclaimLeftovers(exitSeen, pipesClosed.isDone());
            pipesClosed.thenRun(() -> deliverExit(exitCode, requested));
            if (!pipesClosed.isDone()) {
                ProcessThreads.timer().schedule(() -> {
                    if (!pipesClosed.isDone()) {
                        // A fresh look: a process forked just before the exit may have been missed.
                        reclaimLeftovers(System.nanoTime(), false);
                        LOG.warn("module '{}': stdout or stderr of pid {} is still open {} ms after its exit",
                                moduleId(), pid(), spec.exitDrainTimeout().toMillis() + PIPE_CLOSE_WAIT_MS);
                    }
                    deliverExit(exitCode, requested);
                }, PIPE_CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
            }
        });
    }

    /**
     * Kills the processes the exited child left behind (descendants, re-parented or not), unless a stop is
     * running, whose ladder owns the tree. They may hold the pipes (and keep a reader thread and end of file
     * waiting), and even if they do not, nothing else would ever stop them once their parent is gone. Note that
     * end of file alone does not prove they let go: the JVM closes its end of a pipe when the child exits.
     */
    private void reclaimLeftovers(long exitSeenNanos, boolean pipesClosed) {
        if (stop.get() != null) {
            return;
        }
        try {
            List<ProcessHandle> leftovers = tree.aliveAfterExit(exitSeenNanos);
            if (!leftovers.isEmpty()) {
                LOG.warn("module '{}': pid {} exited and left {} process(es) of its tree alive{}; killing them",
                        moduleId(), pid(), leftovers.size(), pipesClosed ? "" : " (its stdout or stderr still open)");
                leftovers.forEach(ProcessHandle::destroyForcibly);
            }
        } catch (RuntimeException e) {
            LOG.error("module '{}': could not reclaim the tree of pid {}", moduleId(), pid(), e);
        }
    }

    private void deliverExit(int exitCode, boolean requested) {
        if (!exitDelivered.compareAndSet(false, true)) {
            return;
        }
        ProcessExit exit = new ProcessExit(moduleId(), pid(), exitCode, stderrTail.text(), requested);
        LOG.debug("module '{}': pid {} exited with code {}", moduleId(), pid(), exitCode);
        // Separately, so that neither a slow listener nor a slow dependent stage holds up the other.
        ProcessThreads.callbacks().execute(() -> listener.onExit(exit));
        ProcessThreads.callbacks().execute(() -> exitFuture.complete(exit));
    }
}
