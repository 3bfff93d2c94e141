package org.metaruntime.benchmarks.events;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventStore;
import org.metaruntime.events.UnifiedEvent;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link EventStore#insert} at the default retention (4,096, batch 1,024) against a bare
 * {@link ArrayList#add} in the same run.
 *
 * <p>Envelopes are built up front ({@value #COUNT} of them), so the figures are the cost of the insert
 * alone. The in-order stream has strictly increasing timestamps; when it is used up the store (and the
 * baseline list) is replaced by a fresh one, so every measured insert is an in-order append. The baseline
 * list is cleared when it reaches {@code retention + batch}, like the store's batch drop, so it stays the
 * same size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class EventStoreBenchmark {

    static final int COUNT = 1 << 16;
    private static final int MASK = COUNT - 1;
    private static final int RETENTION = EventStore.DEFAULT_RETENTION;
    private static final int BATCH = EventStore.DEFAULT_DROP_BATCH;

    private EventEnvelope<UnifiedEvent>[] inOrder;
    private EventEnvelope<UnifiedEvent>[] random;
    private EventStore store;
    private EventStore randomStore;
    private List<EventEnvelope<UnifiedEvent>> list;
    private int next;
    private int nextRandom;

    @Setup(Level.Trial)
    @SuppressWarnings("unchecked")
    public void setUp() {
        inOrder = new EventEnvelope[COUNT];
        random = new EventEnvelope[COUNT];
        Random rnd = new Random(42);
        for (int i = 0; i < COUNT; i++) {
            inOrder[i] = EventEnvelope.module("evt-" + i, 1_700_000_000_000L + i, "bench", "tick", null);
            random[i] = EventEnvelope.module("evt-" + i, 1_700_000_000_000L + rnd.nextInt(1_000_000),
                    "bench", "tick", null);
        }
        store = EventStore.create(RETENTION, BATCH);
        randomStore = EventStore.create(RETENTION, BATCH);
        list = new ArrayList<>();
        for (int i = 0; i < RETENTION; i++) {
            randomStore.insert(random[i]); // start at the steady state
        }
        nextRandom = RETENTION;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
        randomStore.close();
    }

    /** Baseline: append to a plain list, cleared at {@code retention + batch}. */
    @Benchmark
    public void arrayListAdd() {
        int i = next;
        if (i == COUNT) {
            i = 0;
            list = new ArrayList<>();
        }
        next = i + 1;
        List<EventEnvelope<UnifiedEvent>> l = list;
        l.add(inOrder[i]);
        if (l.size() == RETENTION + BATCH) {
            l.clear();
        }
    }

    /** Second baseline: the same append under a monitor, the price of thread safety alone. */
    @Benchmark
    public void synchronizedArrayListAdd() {
        synchronized (this) {
            arrayListAdd();
        }
    }

    /** The store, envelopes arriving in timestamp order (the common case). */
    @Benchmark
    public void storeInsertInOrder() {
        int i = next;
        if (i == COUNT) {
            i = 0;
            store.close();
            store = EventStore.create(RETENTION, BATCH);
        }
        next = i + 1;
        store.insert(inOrder[i]);
    }

    /** The store, envelopes arriving with random timestamps, at its steady size (4,096 to 5,119). */
    @Benchmark
    public void storeInsertRandomOrder() {
        randomStore.insert(random[nextRandom++ & MASK]);
    }
}
