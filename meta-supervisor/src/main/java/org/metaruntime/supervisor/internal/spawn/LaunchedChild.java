package org.metaruntime.supervisor.internal.spawn;

import java.io.FilterInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A child started by the launcher, as a {@link Process}: its stdio are the JVM's ends of its FIFOs (without buffers:
 * the process layer reads and writes in chunks of its own), its exit is the one the launcher reported after
 * reaping it, and signals go to its pid through a {@link ProcessHandle} (which checks the start time, so a reused
 * pid is never signalled). Thread-safe.
 */
final class LaunchedChild extends Process {

    private final long pid;
    private final ProcessHandle handle;
    private final OutputStream stdin;
    private final InputStream stdout;
    private final InputStream stderr;
    private final CompletableFuture<Integer> exit;

    LaunchedChild(long pid, ProcessHandle handle, OutputStream stdin, InputStream stdout, InputStream stderr,
                  CompletableFuture<Integer> exit) {
        this.pid = pid;
        this.handle = Objects.requireNonNull(handle, "handle");
        this.stdin = Objects.requireNonNull(stdin, "stdin");
        this.stdout = new FifoInput(stdout);
        this.stderr = new FifoInput(stderr);
        this.exit = Objects.requireNonNull(exit, "exit");
    }

    /**
     * A FIFO's stream without a buffer of its own. {@link java.io.FileInputStream#readAllBytes()} asks the file for
     * its length and position, which a FIFO does not have; this reads it like any stream.
     */
    private static final class FifoInput extends FilterInputStream {
        FifoInput(InputStream in) {
            super(Objects.requireNonNull(in, "in"));
        }
    }

    @Override
    public OutputStream getOutputStream() {
        return stdin;
    }

    @Override
    public InputStream getInputStream() {
        return stdout;
    }

    @Override
    public InputStream getErrorStream() {
        return stderr;
    }

    @Override
    public int waitFor() throws InterruptedException {
        try {
            return exit.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        try {
            exit.get(timeout, unit);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public int exitValue() {
        if (!exit.isDone()) {
            throw new IllegalThreadStateException("process " + pid + " has not exited");
        }
        return exit.join();
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    @Override
    public void destroy() {
        if (isAlive()) {
            handle.destroy();
        }
    }

    @Override
    public Process destroyForcibly() {
        if (isAlive()) {
            handle.destroyForcibly();
        }
        return this;
    }

    @Override
    public boolean supportsNormalTermination() {
        return true;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public ProcessHandle toHandle() {
        return handle;
    }

    @Override
    public CompletableFuture<Process> onExit() {
        return exit.thenApply(code -> this);
    }

    @Override
    public String toString() {
        return "LaunchedChild[pid=" + pid + (exit.isDone() ? ", exitValue=" + exit.join() : ", alive") + "]";
    }
}
