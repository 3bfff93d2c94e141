package org.metaruntime.gateway.internal.serve;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the pod-to-pod calls made during one call inherit from it: the call chain its pod got (every call from the
 * client's down to this one, as {@code pod.tool}), its deadline, and its end: when the call ends, in any way, the
 * nested calls still in flight are cancelled. Thread-safe.
 */
final class CallScope {

    private final List<String> chain;
    private final long deadlineNanos;
    private final Set<Runnable> nested = ConcurrentHashMap.newKeySet();
    private volatile boolean ended;

    /**
     * @param chain         the chain the call's pod gets, this call included
     * @param deadlineNanos when the call's time is up, on the {@link System#nanoTime()} clock
     */
    CallScope(List<String> chain, long deadlineNanos) {
        this.chain = List.copyOf(chain);
        this.deadlineNanos = deadlineNanos;
    }

    List<String> chain() {
        return chain;
    }

    /** Nanoseconds left until the deadline (negative when it has passed). */
    long remainingNanos(long nowNanos) {
        return deadlineNanos - nowNanos;
    }

    long deadlineNanos() {
        return deadlineNanos;
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
