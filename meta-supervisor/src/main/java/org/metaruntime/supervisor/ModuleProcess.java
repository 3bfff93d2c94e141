package org.metaruntime.supervisor;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.metaruntime.supervisor.internal.ExitWatcher;
import org.metaruntime.supervisor.internal.GuardedListener;
import org.metaruntime.supervisor.internal.ProcessLauncher;
import org.metaruntime.supervisor.internal.ProcessThreads;
import org.metaruntime.supervisor.internal.StderrDrainer;
import org.metaruntime.supervisor.internal.StderrTail;
import org.metaruntime.supervisor.internal.StdinWriter;
import org.metaruntime.supervisor.internal.StdoutReader;
import org.metaruntime.supervisor.internal.StopSequence;
import org.metaruntime.supervisor.internal.proc.ProcessTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One live child process owned by the runtime. Thread-safe.
 *
 * <ul>
 *   <li><b>Spawn.</b> From the argv (no shell), in the ProcessSpec's working directory, with the environment described
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
 *       exiting), or by a look every 100 ms on the process layer's timer, from 100 ms after its spawn (its pipes
 *       may outlive it). Once the process has exited, the runtime waits up to
 *       {@link ProcessSpec#exitDrainTimeout()} for stdout and stderr to reach end of file, then kills whatever
 *       is left of its tree (descendants, re-parented ones included, found through the token; see
 *       {@link #stop(StopLadder)}), unless a stop is running: a descendant holding the pipes can then keep
 *       neither a reader thread nor itself alive. Then {@link ProcessListener#onExit} is called and
 *       {@link #exitFuture()} completes.</li>
 * </ul>
 * A live child occupies two threads (its stdout reader and stderr drainer) of a shared pool while its pipes are
 * open. The jobs are separate parts: spawning, reading stdout, draining stderr, writing stdin, watching the exit
 * and the stop ladder; this class composes them for one child.
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

    private final ProcessSpec spec;
    private final Process process;
    private final ProcessListener listener;
    private final ProcessTree tree;
    private final StdinWriter stdin;
    private final StderrTail stderrTail;
    private final StderrDrainer stderrDrainer;
    private final StdoutReader stdoutReader;
    private final ExitWatcher exitWatcher;
    private final CompletableFuture<ProcessExit> exitFuture = new CompletableFuture<>();
    private final AtomicReference<CompletableFuture<StopReport>> stop = new AtomicReference<>();

    private ModuleProcess(ProcessSpec spec, ProcessLauncher.Launched launched, ProcessListener listener) {
        this.spec = spec;
        this.process = launched.process();
        this.listener = new GuardedListener(spec.moduleId(), listener);
        this.tree = ProcessTree.of(process.toHandle(), launched.token(), launched.beforeSpawn());
        this.stdin = new StdinWriter(spec.moduleId(), process.getOutputStream(), ProcessThreads.stdinWriters(),
                spec.stdinQueueBytes());
        this.stderrTail = new StderrTail(spec.stderrTailBytes());
        this.stderrDrainer = new StderrDrainer(spec.moduleId(), process.getErrorStream(), stderrTail);
        this.stdoutReader = new StdoutReader(process.getInputStream(), spec.maxLineBytes(), this.listener);
        this.exitWatcher = new ExitWatcher(spec.moduleId(), process, tree, spec.exitDrainTimeout(),
                stdoutReader.done(), stderrDrainer.done(), stderrTail::text, this::deliverExit);
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
        ProcessLauncher.Launched launched = ProcessLauncher.launch(spec);
        ModuleProcess started = new ModuleProcess(spec, launched, listener);
        try {
            started.begin();
        } catch (RuntimeException | OutOfMemoryError e) {
            launched.process().destroyForcibly();
            throw ProcessLauncher.spawnFailed(spec, "could not start its reader threads: " + e, e);
        }
        LOG.debug("module '{}': started pid {}: {}", spec.moduleId(), started.pid(), spec.command());
        return started;
    }

    private void begin() {
        String prefix = "meta-" + spec.moduleId() + "-";
        ProcessThreads.readers().execute(ProcessThreads.named(prefix + "stderr", () -> {
            stderrDrainer.run();
            exitWatcher.pipeClosed();
        }));
        ProcessThreads.readers().execute(ProcessThreads.named(prefix + "stdout", () -> {
            stdoutReader.run();
            exitWatcher.pipeClosed();
        }));
        exitWatcher.start();
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
     * fails, so a child that does not read its stdin never blocks the caller. When nothing waits and the lines
     * written after the last one the child has read (see {@link #acknowledge(long)}) and this one come to at most
     * 4,096 bytes, it is written on the calling thread instead: a pipe always has room for that much, so the write
     * cannot block.
     *
     * @return the line's number: lines are numbered 1, 2, … in the order they reach the child
     * @throws IllegalArgumentException if the line contains {@code \n}
     * @throws ProcessBoundaryException with {@link ProcessBoundaryError.Io} when stdin is closed, the process is
     *                                  gone, or the queue is full
     */
    public long send(String line) {
        Objects.requireNonNull(line, "line");
        if (line.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a line sent to module '" + moduleId() + "' must not contain \\n");
        }
        if (!process.isAlive()) {
            throw ioError("cannot write to stdin: the process has exited");
        }
        return stdin.offer((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Tells the process layer that the child has read every line up to line {@code number} (as returned by
     * {@link #send(String)}), for example because it answered that line. A protocol that knows when lines are
     * read calls this so that the next line can go straight to an empty pipe. Only a child that answers a line
     * it has not read could make such a write wait for its pipe to drain.
     */
    public void acknowledge(long number) {
        stdin.acknowledge(number);
    }

    private ProcessBoundaryException ioError(String message) {
        return new ProcessBoundaryException(moduleId(), new ProcessBoundaryError.Io(message));
    }

    /** Closes the child's stdin once the queued lines are written (the child sees end of file). Never blocks. */
    public void closeStdin() {
        stdin.close();
    }

    /**
     * Completes once, on a runtime thread, after the process exited, right after {@link ProcessListener#onExit}
     * has returned. Each call returns a new dependent future: completing or cancelling it affects nothing else.
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
                exitWatcher.stopStarted();
                StopSequence.start(moduleId(), process, tree, stdin::close, exitWatcher.exited(), ladder, mine);
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

    /**
     * Tells the listener, then completes the exit future, on one callback thread: whatever reacts to the future (a
     * restart that closes the child's session, say) finds the listener's work done (the session already ended with
     * the exit code).
     */
    private void deliverExit(ProcessExit exit) {
        ProcessThreads.callbacks().execute(() -> {
            try {
                listener.onExit(exit);
            } finally {
                exitFuture.complete(exit); // even past an error the guard lets through (a stack overflow, say)
            }
        });
    }
}
