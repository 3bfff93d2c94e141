package org.metaruntime.benchmarks.events;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.Events;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link Events#mergeUnifiedEvents} of two sorted lists of 100,000 envelopes whose timestamps interleave,
 * against two floors: copying both into one list (no ordering at all), and reading the timestamp of every
 * envelope once, which any merge that orders its inputs (and checks that they are sorted) has to do.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class MergeBenchmark {

    private static final int SIZE = 100_000;

    private List<EventEnvelope<UnifiedEvent>> moduleEvents;
    private List<EventEnvelope<UnifiedEvent>> agentEvents;

    @Setup(Level.Trial)
    public void setUp() {
        moduleEvents = new ArrayList<>(SIZE);
        agentEvents = new ArrayList<>(SIZE);
        for (int i = 0; i < SIZE; i++) {
            moduleEvents.add(EventEnvelope.module("m-" + i, 2L * i, "bench", "tick", null));
            agentEvents.add(EventEnvelope.agent("a-" + i, 2L * i + (i % 3 == 0 ? 0 : 1), "agent", "text_delta", null));
        }
    }

    @Benchmark
    public List<EventEnvelope<UnifiedEvent>> mergeSorted100k() {
        return Events.mergeUnifiedEvents(moduleEvents, agentEvents);
    }

    /** Floor: the copy into one list that any merge has to make. */
    @Benchmark
    public List<EventEnvelope<UnifiedEvent>> concatOnly100k() {
        List<EventEnvelope<UnifiedEvent>> all = new ArrayList<>(2 * SIZE);
        all.addAll(moduleEvents);
        all.addAll(agentEvents);
        return all;
    }

    /** Floor: read every envelope's timestamp once (the copy moves references without reading envelopes). */
    @Benchmark
    public long readTimestamps100k() {
        long sum = 0;
        for (EventEnvelope<UnifiedEvent> envelope : moduleEvents) {
            sum += envelope.timestampMs();
        }
        for (EventEnvelope<UnifiedEvent> envelope : agentEvents) {
            sum += envelope.timestampMs();
        }
        return sum;
    }
}
