package org.metaruntime.supervisor.internal.health;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongConsumer;
import org.metaruntime.supervisor.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where and when one module's restart attempts run. Each restart takes a ticket; a scheduled one waits its delay on
 * the {@link Scheduler}, then runs on the attempt executor (on the scheduler's thread when the executor refuses it,
 * so a slow start never holds up the scheduler otherwise). At most one attempt runs at a time, and a newer ticket or
 * {@link #dropAll()} makes the older ones stale.
 *
 * <p>Not thread-safe: the owner calls every method under its lock, except {@link #close()}; the attempt itself runs
 * without it.
 */
public final class RestartRunner {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleSupervisor.LOGGER);

    private final String moduleId;
    private final Scheduler scheduler;
    private final boolean ownsScheduler;
    private final Executor executor;
    private long ticket;
    private boolean running;
    private Scheduler.Cancellable pending;

    /**
     * @param scheduler the caller's scheduler, or {@code null} for one of the runner's own ({@link Scheduler#daemon()},
     *                  closed by {@link #close()})
     * @param executor  where scheduled attempts run
     */
    public RestartRunner(String moduleId, Scheduler scheduler, Executor executor) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.ownsScheduler = scheduler == null;
        this.scheduler = ownsScheduler ? Scheduler.daemon() : scheduler;
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** A ticket for a new restart; every older ticket becomes stale. */
    public long newTicket() {
        return ++ticket;
    }

    /** Runs {@code attempt.accept(ticket)} on the executor once {@code delay} has passed. */
    public void schedule(long ticket, Duration delay, LongConsumer attempt) {
        try {
            pending = scheduler.schedule(() -> launch(ticket, attempt), delay);
        } catch (RejectedExecutionException e) {
            LOG.error("module '{}': the scheduler refused the restart", moduleId, e);
        }
    }

    /** Whether the attempt of {@code ticket} may run now (its ticket is current and none runs); it runs from now on. */
    public boolean begin(long ticket) {
        if (ticket != this.ticket || running) {
            return false;
        }
        pending = null;
        running = true;
        return true;
    }

    /** The running attempt returned. */
    public void end() {
        running = false;
    }

    /** Makes every ticket stale; returns the pending restart, for the caller to cancel without its lock (or null). */
    public Scheduler.Cancellable dropAll() {
        ticket++;
        Scheduler.Cancellable dropped = pending;
        pending = null;
        return dropped;
    }

    /** Closes the scheduler when it is the runner's own. */
    public void close() {
        if (ownsScheduler) {
            scheduler.close();
        }
    }

    private void launch(long ticket, LongConsumer attempt) {
        try {
            executor.execute(() -> attempt.accept(ticket));
        } catch (RejectedExecutionException e) {
            LOG.warn("module '{}': the attempt executor refused the restart; running it on the scheduler", moduleId, e);
            attempt.accept(ticket);
        }
    }
}
