package org.metaruntime.supervisor.internal;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import org.metaruntime.supervisor.ModuleProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the steps that look at the process table together, on the shared timer, all with one moment: the stop
 * ladders of many children that fall due together (a runtime closing a thousand modules) share one pass over
 * {@code /proc} (see {@link org.metaruntime.supervisor.internal.proc.ProcessTree}) instead of taking one each. A step is handed a {@link System#nanoTime()}
 * taken after it was submitted: a pass begun at or after that moment misses nothing the step's own moment would
 * have caught. Steps submitted while a batch runs go to the next batch, which is queued behind the timer's other
 * due tasks, so that it collects what falls due meanwhile. Thread-safe.
 */
final class PassBatch {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleProcess.class);

    private record Step(long submitted, LongConsumer step) {
    }

    private static final Queue<Step> PENDING = new ConcurrentLinkedQueue<>();
    private static final AtomicBoolean SCHEDULED = new AtomicBoolean();

    private PassBatch() {
    }

    /**
     * Runs {@code step} on the timer with a moment taken after this call, together with the other steps
     * submitted until then.
     */
    static void submit(LongConsumer step) {
        PENDING.add(new Step(System.nanoTime(), step));
        if (SCHEDULED.compareAndSet(false, true)) {
            SharedTimer.timer().execute(PassBatch::run);
        }
    }

    private static void run() {
        SCHEDULED.set(false);
        long moment = System.nanoTime();
        // Only steps submitted before the moment: one that came later runs in the next batch, whose submit
        // (this one's or a later one's) came after the flag was cleared and so scheduled it.
        Step next;
        while ((next = PENDING.peek()) != null && next.submitted() - moment <= 0) {
            PENDING.poll();
            try {
                next.step().accept(moment);
            } catch (RuntimeException | Error e) {
                LOG.error("a step of the process layer failed", e);
            }
        }
    }
}
