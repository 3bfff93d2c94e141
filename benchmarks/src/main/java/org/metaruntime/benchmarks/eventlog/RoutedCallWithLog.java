package org.metaruntime.benchmarks.eventlog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.events.EventEnvelope;

/**
 * Routed-call latency with the event log off and on: a runtime routes calls to the Python MCP module
 * {@code examples/modules/text-tools} while another thread ingests agent events into the merged store
 * ({@value #INGEST_PER_SECOND} a second), which the log (when on) appends. Off and on alternate for
 * {@code rounds} rounds of {@code calls} calls each.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.eventlog.RoutedCallWithLog [calls] [rounds]
 * </pre>
 * (run from the repository root; needs python3).
 */
public final class RoutedCallWithLog {

    private static final int INGEST_PER_SECOND = 2_000;

    private RoutedCallWithLog() {
    }

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path module = Path.of("examples/modules/text-tools").toAbsolutePath();
        MetaConfig config = MetaConfig.builder()
                .module(ModuleConfig.builder("text-tools").command("python3", "text_tools.py").workdir(module).build())
                .discover("text-tools")
                .preSpawn(new PreSpawnData("text-tools", List.of(Map.entry("META_MODULE_BOUNDARY", "mcp"))))
                .build();
        System.out.printf(Locale.ROOT, "calls %d per round, %d rounds, agent ingest %d/s, load %.1f%n", calls, rounds,
                INGEST_PER_SECOND,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.println("| round | log | median µs | p99 µs | envelopes ingested |");
        for (int round = 1; round <= rounds; round++) {
            for (boolean logOn : new boolean[] {false, true}) {
                Path state = Files.createTempDirectory("meta-eventlog-calls-");
                UnifiedRuntime.Builder builder = UnifiedRuntime.builder(config)
                        .options(RuntimeOptions.builder().shutdownHook(false).build());
                if (logOn) {
                    builder.persistentState(state);
                }
                try (UnifiedRuntime runtime = builder.start()) {
                    AtomicBoolean stop = new AtomicBoolean();
                    AtomicLong ingested = new AtomicLong();
                    Thread ingest = new Thread(() -> {
                        long next = System.nanoTime();
                        while (!stop.get()) {
                            runtime.ingestAgentEvent(EventEnvelope.agent("a-" + ingested.get(),
                                    System.currentTimeMillis(), "bench-agent", "text_delta",
                                    JsonNodeFactory.instance.objectNode().put("delta", "token")));
                            ingested.incrementAndGet();
                            next += 1_000_000_000L / INGEST_PER_SECOND;
                            long wait = next - System.nanoTime();
                            if (wait > 0) {
                                java.util.concurrent.locks.LockSupport.parkNanos(wait);
                            }
                        }
                    }, "bench-ingest");
                    ingest.start();
                    ModuleRouteRequest request = new ModuleRouteRequest("text-tools", "reverse",
                            JsonNodeFactory.instance.objectNode().put("text", "meta-runtime"));
                    for (int i = 0; i < 200; i++) {
                        runtime.routeModuleCall(request, Duration.ofSeconds(30));
                    }
                    double[] us = new double[calls];
                    for (int i = 0; i < calls; i++) {
                        long t = System.nanoTime();
                        runtime.routeModuleCall(request, Duration.ofSeconds(30));
                        us[i] = (System.nanoTime() - t) / 1e3;
                    }
                    stop.set(true);
                    ingest.join();
                    Arrays.sort(us);
                    System.out.printf(Locale.ROOT, "| %d | %s | %.0f | %.0f | %d |%n", round, logOn ? "on" : "off",
                            us[calls / 2], us[(int) Math.ceil(calls * 0.99) - 1], ingested.get());
                }
                try (var files = Files.list(state)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
                Files.delete(state);
            }
        }
    }
}
