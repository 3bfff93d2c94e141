package org.metaruntime.core.testing;

import java.util.ArrayDeque;
import java.util.Deque;

/** The errors the next attempts of a fake module fail with, in order. Thread-safe. */
final class ScriptedFailures<E> {

    private final Deque<E> next = new ArrayDeque<>();

    /** The next {@code count} attempts fail with {@code error}. */
    synchronized void add(int count, E error) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0: " + count);
        }
        for (int i = 0; i < count; i++) {
            next.add(error);
        }
    }

    /** The error this attempt fails with, or null: it succeeds. */
    synchronized E poll() {
        return next.poll();
    }
}
