package org.metaruntime.benchmarks.events;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventStore;

/**
 * Shows that the store's memory is bounded by its retention: inserts a million fresh envelopes (each with
 * a small payload) into a default store and prints the used heap after a full GC at checkpoints.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.events.EventStoreMemory
 * </pre>
 */
public final class EventStoreMemory {

    private EventStoreMemory() {
    }

    public static void main(String[] args) {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.out.printf("%-12s %-8s %s%n", "inserts", "size", "used heap after GC (KiB)");
        System.out.printf("%-12d %-8d %d%n", 0, 0, usedAfterGc(memory) / 1024);
        try (EventStore store = EventStore.create()) {
            int checkpoint = 10_000;
            for (int i = 1; i <= total; i++) {
                store.insert(EventEnvelope.module("evt-" + i, i, "bench", "tick",
                        JsonNodeFactory.instance.objectNode().put("n", i).put("text", "payload " + i)));
                if (i == checkpoint || i == total) {
                    System.out.printf("%-12d %-8d %d%n", i, store.size(), usedAfterGc(memory) / 1024);
                    checkpoint *= 10;
                }
            }
        }
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
