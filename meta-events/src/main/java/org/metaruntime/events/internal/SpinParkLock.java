package org.metaruntime.events.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A non-reentrant mutual-exclusion lock for short critical sections on a hot path: taking a free lock is one
 * compare-and-set, giving it back one release store (a {@code synchronized} block costs two atomic
 * instructions, a {@code ReentrantLock} an atomic instruction and a full fence). A thread that finds it held
 * spins briefly, then yields, then parks for a growing time (up to {@value #MAX_PARK_NANOS} ns) and tries again;
 * there is no queue of waiters, so releasing never has to wake anyone. Not fair: a waiter may be overtaken.
 *
 * <p>Use it only around code that never blocks and never calls out to code that could take this lock again.
 * An interrupt does not stop {@link #lock} (like entering a monitor); the thread's interrupt status is kept.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * lock.lock();
 * try {
 *     items[end++] = item;
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 */
public final class SpinParkLock {

    static final long MAX_PARK_NANOS = 200_000;
    private static final int SPINS = 64;
    private static final int YIELDS = 16;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SpinParkLock.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE: 0 free, 1 held
    private volatile int state;

    /** Takes the lock, waiting as long as it takes. */
    public void lock() {
        if (!STATE.compareAndSet(this, 0, 1)) {
            lockContended();
        }
    }

    /** Gives the lock back; only the thread that holds it may call this. */
    public void unlock() {
        STATE.setRelease(this, 0);
    }

    private void lockContended() {
        boolean interrupted = false;
        long park = 1_000;
        for (int attempt = 0; ; attempt++) {
            if ((int) STATE.getAcquire(this) == 0 && STATE.compareAndSet(this, 0, 1)) {
                break;
            }
            if (attempt < SPINS) {
                Thread.onSpinWait();
            } else if (attempt < SPINS + YIELDS) {
                Thread.yield();
            } else {
                // A pending interrupt would make parkNanos return at once: keep it aside while waiting.
                interrupted |= Thread.interrupted();
                LockSupport.parkNanos(this, park);
                park = Math.min(MAX_PARK_NANOS, park * 2);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
