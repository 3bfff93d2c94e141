package org.metaruntime.supervisor.internal;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.StopReport;
import org.metaruntime.supervisor.StopStage;
import org.metaruntime.supervisor.internal.proc.ProcessTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the stop ladder for one child, as a chain of short steps on the shared timer (no thread waits; the steps
 * that read the process table run in a {@link PassBatch}, so that ladders running side by side share their reads):
 * record the child's descendants, close stdin and wait up to {@code stdinGrace} for the child to exit; collect
 * the tree (descendants and token carriers) before signalling anything; SIGTERM every member and wait up to {@code termGrace} for all to
 * be gone; SIGKILL whatever is left (including anything found anew) and wait up to {@code killWait}; report.
 * Each wait ends as soon as there is nothing left to wait for, so the whole run is bounded by the sum of the
 * graces plus the cost of a few passes over the process table.
 */
public final class StopSequence {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleProcess.class);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final String moduleId;
    private final Process process;
    private final ProcessTree tree;
    private final Runnable closeStdin;
    private final CompletableFuture<?> exited;
    private final StopLadder ladder;
    private final CompletableFuture<StopReport> result;
    private final ScheduledExecutorService timer = SharedTimer.timer();
    private final Set<ProcessHandle> members = new LinkedHashSet<>();
    private StopStage stage;

    private StopSequence(String moduleId, Process process, ProcessTree tree, Runnable closeStdin,
                         CompletableFuture<?> exited, StopLadder ladder, CompletableFuture<StopReport> result) {
        this.moduleId = moduleId;
        this.process = process;
        this.tree = tree;
        this.closeStdin = closeStdin;
        this.exited = exited;
        this.ladder = ladder;
        this.result = result;
    }

    /**
     * Starts the ladder; {@code result} is completed (on the callback pool) with the report.
     *
     * @param exited completes when the child has exited
     */
    public static void start(String moduleId, Process process, ProcessTree tree, Runnable closeStdin,
                             CompletableFuture<?> exited, StopLadder ladder, CompletableFuture<StopReport> result) {
        StopSequence sequence = new StopSequence(Objects.requireNonNull(moduleId, "moduleId"),
                Objects.requireNonNull(process, "process"), Objects.requireNonNull(tree, "tree"),
                Objects.requireNonNull(closeStdin, "closeStdin"), Objects.requireNonNull(exited, "exited"),
                Objects.requireNonNull(ladder, "ladder"), Objects.requireNonNull(result, "result"));
        PassBatch.submit(sequence.guarded(sequence::begin));
    }

    /** @param moment a pass begun after the stop was requested */
    private void begin(long moment) {
        if (!process.isAlive()) {
            stage = StopStage.ALREADY_EXITED;
            terminate(moment);
            return;
        }
        // Recorded while the child surely lives: once stdin is closed it may exit at once, and its children are
        // re-parented before the tree is read (then only their token finds them, which a child caught in the
        // middle of an exec does not show).
        tree.snapshot(moment);
        closeStdin.run();
        AtomicBoolean once = new AtomicBoolean();
        Runnable next = () -> {
            if (once.compareAndSet(false, true)) {
                PassBatch.submit(guarded(this::terminate));
            }
        };
        ScheduledFuture<?> timeout = timer.schedule(next, ladder.stdinGrace().toNanos(), TimeUnit.NANOSECONDS);
        exited.whenComplete((ignored, error) -> {
            timeout.cancel(false);
            timer.execute(next);
        });
    }

    /** @param moment a pass begun after the child exited or its stdin grace ended */
    private void terminate(long moment) {
        if (stage == null && !process.isAlive()) {
            stage = StopStage.EXITED_AFTER_STDIN_CLOSE;
        }
        // The whole tree is collected before anything is signalled: once a parent dies, its children are
        // re-parented and no longer show up as its descendants. Nothing forked during the grace is missed.
        List<ProcessHandle> alive = tree.alive(moment);
        members.addAll(alive);
        if (alive.isEmpty()) {
            finish();
            return;
        }
        alive.forEach(ProcessHandle::destroy);
        awaitGone(ladder.termGrace(), () -> PassBatch.submit(guarded(this::kill)));
    }

    /** @param moment a pass begun after SIGTERM was sent: it finds what was forked meanwhile */
    private void kill(long moment) {
        if (stage == null && !process.isAlive()) {
            stage = StopStage.EXITED_AFTER_SIGTERM;
        }
        members.addAll(tree.alive(moment));
        List<ProcessHandle> alive = aliveMembers();
        if (alive.isEmpty()) {
            finish();
            return;
        }
        if (stage == null) {
            stage = StopStage.KILLED;
        }
        alive.forEach(ProcessHandle::destroyForcibly);
        awaitGone(ladder.killWait(), this::finish);
    }

    private void finish() {
        int survivors = aliveMembers().size();
        boolean alive = process.isAlive();
        if (stage == null) {
            stage = StopStage.KILLED;
        }
        StopReport report = new StopReport(moduleId, process.pid(), stage,
                alive ? OptionalInt.empty() : OptionalInt.of(process.exitValue()), survivors);
        if (survivors > 0 && !ladder.killWait().isZero()) {
            LOG.warn("module '{}': {} process(es) of the tree of pid {} survived the stop ladder", moduleId,
                    survivors, process.pid());
        } else {
            LOG.debug("module '{}': stopped pid {}: {}", moduleId, process.pid(), report);
        }
        ProcessThreads.callbacks().execute(() -> result.complete(report));
    }

    private List<ProcessHandle> aliveMembers() {
        return members.stream().filter(this::isAlive).toList();
    }

    private boolean isAlive(ProcessHandle handle) {
        // The JVM reaps its own child, so its view is exact and tells when the exit code is known.
        return handle.pid() == process.pid() ? process.isAlive() : ProcessTree.isAlive(handle);
    }

    private void awaitGone(Duration grace, Runnable next) {
        long deadline = System.nanoTime() + grace.toNanos();
        Runnable poll = new Runnable() {
            @Override
            public void run() {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0 || aliveMembers().isEmpty()) {
                    next.run();
                } else {
                    timer.schedule(guarded(this), Math.min(remaining, POLL_NANOS), TimeUnit.NANOSECONDS);
                }
            }
        };
        poll.run();
    }

    private Runnable guarded(Runnable step) {
        return () -> guarded(moment -> step.run()).accept(0);
    }

    private LongConsumer guarded(LongConsumer step) {
        return moment -> {
            try {
                step.accept(moment);
            } catch (RuntimeException | Error e) {
                // The timer would swallow it and the stop would never end: end it here, whatever the failure.
                LOG.error("module '{}': the stop ladder failed; killing pid {} and its known descendants",
                        moduleId, process.pid(), e);
                process.destroyForcibly();
                members.forEach(ProcessHandle::destroyForcibly);
                StopReport report = new StopReport(moduleId, process.pid(), StopStage.KILLED, OptionalInt.empty(),
                        members.size());
                ProcessThreads.callbacks().execute(() -> result.complete(report));
            }
        };
    }
}
