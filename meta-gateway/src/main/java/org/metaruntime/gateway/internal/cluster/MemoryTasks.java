package org.metaruntime.gateway.internal.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/** The gateway's tasks of a single process, in memory; a finished one is kept for the time to live. Thread-safe. */
public final class MemoryTasks implements TaskStore {

    private record Entry(TaskState state, long finishedNanos) {
    }

    private final Map<String, Entry> tasks = new ConcurrentHashMap<>();
    private final long ttlNanos;
    private final LongSupplier nanoClock;

    /** Tasks kept for {@code ttl} after they finish. */
    public MemoryTasks(Duration ttl) {
        this(ttl, System::nanoTime);
    }

    /** Tasks kept for {@code ttl} after they finish, timed by {@code nanoClock}. */
    MemoryTasks(Duration ttl, LongSupplier nanoClock) {
        this.ttlNanos = ttl.toNanos();
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    @Override
    public void start(String id) {
        expire();
        tasks.put(id, new Entry(new TaskState(id, TaskState.WORKING, null, null), 0));
    }

    @Override
    public boolean finish(String id, String status, JsonNode result, JsonNode error) {
        boolean[] ended = new boolean[1];
        tasks.computeIfPresent(id, (key, entry) -> {
            if (entry.state().finished()) {
                return entry;
            }
            ended[0] = true;
            return new Entry(new TaskState(id, status, result, error), nanoClock.getAsLong());
        });
        return ended[0];
    }

    @Override
    public Optional<TaskState> get(String id) {
        Entry entry = tasks.get(id);
        if (entry == null || expired(entry)) {
            return Optional.empty();
        }
        return Optional.of(entry.state());
    }

    @Override
    public int expire() {
        int before = tasks.size();
        tasks.values().removeIf(this::expired);
        return before - tasks.size();
    }

    private boolean expired(Entry entry) {
        return entry.state().finished() && nanoClock.getAsLong() - entry.finishedNanos() >= ttlNanos;
    }
}
