package org.metaruntime.supervisor.internal.health;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;

/**
 * The restart intensity: at most {@code maxRestarts} restarts in a sliding window of {@code window}. Holds at most
 * {@code maxRestarts} timestamps. Not thread-safe: the owner guards it with its lock.
 */
public final class RestartWindow {

    private final int maxRestarts;
    private final Duration window;
    private final ArrayDeque<Instant> restarts = new ArrayDeque<>();

    public RestartWindow(int maxRestarts, Duration window) {
        this.maxRestarts = maxRestarts;
        this.window = window;
    }

    /** The restarts counted at {@code now} (those less than one window ago). */
    public int count(Instant now) {
        Instant oldestCounted = now.minus(window);
        while (!restarts.isEmpty() && !restarts.peekFirst().isAfter(oldestCounted)) {
            restarts.pollFirst();
        }
        return restarts.size();
    }

    /** Counts a restart at {@code now} when the intensity allows it; {@code false} when it is exceeded. */
    public boolean tryRecord(Instant now) {
        if (count(now) >= maxRestarts) {
            return false;
        }
        restarts.addLast(now);
        return true;
    }

    /** Forgets every counted restart. */
    public void reset() {
        restarts.clear();
    }
}
