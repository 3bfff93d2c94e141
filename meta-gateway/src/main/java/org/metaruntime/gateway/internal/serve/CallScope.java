package org.metaruntime.gateway.internal.serve;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.metaruntime.supervisor.Deadline;

/**
 * What the pod-to-pod calls made during one call inherit from it: the call chain its pod got (every call from the
 * client's down to this one, as {@code pod.tool}), its deadline (its timeout from the moment it is sent to the pod,
 * a lazy pod's start not counted, and never later than the deadline of the call it was made for), and its end: when
 * the call ends, in any way, the nested calls still in flight are cancelled. Its times are read from the gateway's one
 * clock of calls ({@code CallSettings.nanoClock}). Thread-safe.
 */
final class CallScope {

    private final List<String> chain;
    private final org.metaruntime.gateway.spi.Principal principal;
    private final org.metaruntime.gateway.internal.pipeline.CallSpan span;
    private final long boundNanos;
    private final LongSupplier nanoClock;
    private volatile long deadlineNanos;
    private final Set<Runnable> nested = ConcurrentHashMap.newKeySet();
    private volatile boolean ended;
    private volatile Runnable onStart = () -> { };

    /**
     * @param chain      the chain the call's pod gets, this call included
     * @param boundNanos the latest its deadline may be, on {@code nanoClock} (the deadline of the call it was made
     *                   for), or {@link Long#MAX_VALUE} for no bound
     * @param principal  who made the call (the nested calls made for it run as this principal)
     * @param span       the call's span (the parent of its nested calls' spans)
     * @param nanoClock  the gateway's monotonic clock of calls, in nanoseconds
     */
    CallScope(List<String> chain, long boundNanos, org.metaruntime.gateway.spi.Principal principal,
              org.metaruntime.gateway.internal.pipeline.CallSpan span, LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.chain = List.copyOf(chain);
        this.principal = principal;
        this.span = span;
        this.boundNanos = boundNanos;
        this.deadlineNanos = boundNanos;
    }

    List<String> chain() {
        return chain;
    }

    /** Who made the call. */
    org.metaruntime.gateway.spi.Principal principal() {
        return principal;
    }

    /** The call's span; null for none. */
    org.metaruntime.gateway.internal.pipeline.CallSpan span() {
        return span;
    }

    /**
     * The call is sent to its pod now: its deadline is {@code timeout} from now, or the bound when that is sooner.
     *
     * @return the time the call has (zero or negative when the bound has passed)
     */
    Duration start(Duration timeout) {
        Duration left = restart(timeout);
        onStart.run();
        return left;
    }

    /** Runs {@code action} when the call is sent to its pod ({@link #start}); it must be fast and never throw. */
    void onStart(Runnable action) {
        this.onStart = action;
    }

    /**
     * The call has its whole time again from now: its deadline is {@code timeout} from now, or the bound when that is
     * sooner (a call that waited for its client's input resumes).
     *
     * @return the time the call has (zero or negative when the bound has passed)
     */
    Duration restart(Duration timeout) {
        long nowNanos = nanoClock.getAsLong();
        long end = nowNanos + Deadline.clamp(timeout).toNanos();
        deadlineNanos = Math.min(end, boundNanos);
        return Duration.ofNanos(deadlineNanos - nowNanos);
    }

    /** When the call's time is up (once it was sent; before, the bound). */
    long deadlineNanos() {
        return deadlineNanos;
    }

    /** Nanoseconds left until the deadline now (negative when it has passed). */
    long remainingNanos() {
        return deadlineNanos - nanoClock.getAsLong();
    }

    /** Registers a nested call's cancel; it runs at once when this call has already ended. */
    void nested(Runnable cancel) {
        nested.add(cancel);
        if (ended && nested.remove(cancel)) {
            cancel.run();
        }
    }

    /** A nested call finished by itself. */
    void finished(Runnable cancel) {
        nested.remove(cancel);
    }

    /** The call ended: cancels the nested calls still in flight. Idempotent. */
    void end() {
        ended = true;
        for (Runnable cancel : nested) {
            if (nested.remove(cancel)) {
                cancel.run();
            }
        }
    }
}
