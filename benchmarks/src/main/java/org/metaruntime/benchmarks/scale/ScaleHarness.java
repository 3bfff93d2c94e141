package org.metaruntime.benchmarks.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.ModuleRouteResponse;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.RuntimeShutdownReport;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.supervisor.ModuleSupervisorReport;

/**
 * Many real modules in one {@link UnifiedRuntime}: what each costs, whether calls to all of them are answered, and
 * whether {@code close()} gives everything back. Linux only (it reads {@code /proc}); needs {@code mawk} and
 * {@code sh}.
 *
 * <p>The modules are the lightest real children the harness could write: an MCP server in mawk
 * ({@code scale/mcp_server.awk}, tool {@code echo}) and an event-line module in sh that prints its event and
 * execs {@code sleep} ({@code scale/eventline_daemon.sh}), so it stays alive after startup.
 *
 * <p>Modes:
 * <ul>
 *   <li>{@code full} (default): {@code --modules N} (1000) modules, {@code --mcp-share} (0.5) of them MCP; start,
 *       measure threads, descriptors, heap and the children's memory, route {@code --calls} (20000) calls to random
 *       modules from {@code --threads} (16) threads ({@code --calls-to} {@code all}, {@code mcp} or
 *       {@code eventline} modules), then, with {@code --bare-runs R}, R runs of the event-line module with a bare
 *       {@link ProcessBuilder} as the floor of a call with the same modules alive, close, and check that nothing is left (then, unless {@code --wait-jdk-pools
 *       false}, wait up to 90 s for the JDK's idle process reapers to time out and check the thread count
 *       again).</li>
 *   <li>{@code startup}: event-line modules only; start time for each of {@code --sizes} (10,100,1000) with each
 *       {@code startupParallelism} of {@code --parallelisms} (1,4,16).</li>
 * </ul>
 *
 * <p>Each mode first starts and closes two modules, so that class loading is not counted.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.scale.ScaleHarness
 * --modules 1000}, or {@code ... ScaleHarness --mode startup}.
 */
public final class ScaleHarness {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, String> args;
    private final Path mcpServer;
    private final Path eventLineDaemon;

    private ScaleHarness(Map<String, String> args, Path dir) throws IOException {
        this.args = args;
        this.mcpServer = copy("mcp_server.awk", dir);
        this.eventLineDaemon = copy("eventline_daemon.sh", dir);
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new LinkedHashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            if (!argv[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + argv[i]);
            }
            args.put(argv[i].substring(2), argv[i + 1]);
        }
        System.out.printf(Locale.ROOT, "%d cores, max heap %d MiB, ulimit -n %s, ulimit -u %s, java %s%n",
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                Footprint.limit("Max open files"), Footprint.limit("Max processes"),
                System.getProperty("java.version"));
        Path dir = Files.createTempDirectory("meta-scale");
        try {
            ScaleHarness harness = new ScaleHarness(args, dir);
            String mode = args.getOrDefault("mode", "full");
            if (mode.equals("full")) {
                harness.full();
            } else if (mode.equals("startup")) {
                harness.startup();
            } else {
                throw new IllegalArgumentException("--mode is full or startup, not " + mode);
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path file : files.collect(Collectors.toList())) {
                    Files.delete(file);
                }
            }
            Files.delete(dir);
        }
    }

    private static Path copy(String resource, Path dir) throws IOException {
        try (InputStream in = Objects.requireNonNull(ScaleHarness.class.getResourceAsStream("/scale/" + resource),
                resource)) {
            Path target = dir.resolve(resource);
            Files.copy(in, target);
            return target;
        }
    }

    private int intArg(String name, int fallback) {
        return args.containsKey(name) ? Integer.parseInt(args.get(name)) : fallback;
    }

    private List<Integer> intsArg(String name, String fallback) {
        return Arrays.stream(args.getOrDefault(name, fallback).split(",")).map(String::strip)
                .map(Integer::parseInt).collect(Collectors.toList());
    }

    // ------------------------------------------------------------------------------------------ configuration

    private MetaConfig config(int modules, double mcpShare) {
        MetaConfig.Builder config = MetaConfig.builder();
        List<String> ids = new ArrayList<>();
        int mcp = (int) Math.round(modules * mcpShare);
        for (int i = 0; i < modules; i++) {
            // Interleaved, so that startup and calls mix both kinds all along.
            boolean isMcp = mcp > 0 && (long) i * mcp / modules != (long) (i + 1) * mcp / modules;
            String id = String.format(Locale.ROOT, "%s-%04d", isMcp ? "mcp" : "el", i);
            ModuleConfig.Builder module = ModuleConfig.builder(id);
            if (isMcp) {
                module.command("mawk", "-W", "interactive", "-f", mcpServer.toString());
                config.preSpawn(PreSpawnData.mcp(id));
            } else {
                module.command("sh", eventLineDaemon.toString(), id);
            }
            config.module(module.build());
            ids.add(id);
        }
        return config.discover(ids.toArray(new String[0])).build();
    }

    private static RuntimeOptions.Builder options(int parallelism) {
        // A routed event-line call reads the first line and stops the process at once: the daemon never exits.
        return RuntimeOptions.builder().startupParallelism(parallelism).startupTimeout(STARTUP_TIMEOUT)
                .callTimeout(CALL_TIMEOUT).eventLineExitGrace(Duration.ZERO);
    }

    // ------------------------------------------------------------------------------------------ full mode

    private void full() throws InterruptedException {
        int modules = intArg("modules", 1000);
        double mcpShare = Double.parseDouble(args.getOrDefault("mcp-share", "0.5"));
        int calls = intArg("calls", 20_000);
        int threads = intArg("threads", 16);
        int parallelism = intArg("parallelism", RuntimeOptions.defaults().startup().parallelism());
        MetaConfig config = config(modules, mcpShare);

        warmUp(options(parallelism).build());
        Footprint before = Footprint.take(true);
        System.out.printf(Locale.ROOT, "baseline: %s%n", describe(before));

        long t0 = System.nanoTime();
        UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(options(parallelism).build()).start();
        long startNanos = System.nanoTime() - t0;
        int loaded = runtime.loadedModules().size();
        System.out.printf(Locale.ROOT, "start: %d of %d modules loaded in %.0f ms (%.2f ms/module, startupParallelism"
                + " %d)%n", loaded, modules, startNanos / 1e6, startNanos / 1e6 / modules, parallelism);

        List<Long> pids = new ArrayList<>();
        for (ModuleSupervisorReport report : runtime.supervisorReport().values()) {
            report.pid().ifPresent(pids::add);
        }
        Footprint during = Footprint.take(true);
        long[] memory = Footprint.childMemoryKiB(pids);
        System.out.printf(Locale.ROOT, "running: %s%n", describe(during));
        System.out.printf(Locale.ROOT, "per module: %.2f threads (%.2f without the JDK's process reapers), %.2f fds,"
                        + " %.1f KiB heap%n", (during.activeThreads() - before.activeThreads()) / (double) modules,
                (during.activeThreads() - during.busyReapers() - before.activeThreads()) / (double) modules,
                (during.fds() - before.fds()) / (double) modules,
                (during.heapAfterGcKiB() - before.heapAfterGcKiB()) / (double) modules);
        System.out.printf(Locale.ROOT, "children: %d live, VmRSS %d MiB in total (%.0f KiB each), Pss %d MiB (%.0f KiB"
                        + " each)%n", pids.size(), memory[0] >> 10, memory[0] / (double) Math.max(1, pids.size()),
                memory[1] >> 10, memory[1] / (double) Math.max(1, pids.size()));
        System.out.printf(Locale.ROOT, "thread groups (delta): %s%n", delta(before, during));

        route(runtime, calls, threads, args.getOrDefault("calls-to", "all"));
        int bare = intArg("bare-runs", 0);
        if (bare > 0) {
            bareFloor(bare, threads);
        }

        t0 = System.nanoTime();
        RuntimeShutdownReport report = runtime.shutdown();
        long closeNanos = System.nanoTime() - t0;
        System.out.printf(Locale.ROOT, "close: %.0f ms, %d modules terminated, %d orphan processes%n",
                closeNanos / 1e6, report.terminatedModules().size(), report.orphanProcesses());
        verifyNothingLeft(before, Boolean.parseBoolean(args.getOrDefault("wait-jdk-pools", "true")));
        System.out.printf(Locale.ROOT, "| %d | %.0f | %.2f | %.2f | %.2f | %.1f | %d | %d |%n", modules,
                startNanos / 1e6, (during.activeThreads() - before.activeThreads()) / (double) modules,
                (during.activeThreads() - during.busyReapers() - before.activeThreads()) / (double) modules,
                (during.fds() - before.fds()) / (double) modules,
                (during.heapAfterGcKiB() - before.heapAfterGcKiB()) / 1024.0, memory[0] >> 10, memory[1] >> 10);
    }

    /**
     * Starts and closes two modules (one of each kind) so that class loading and JIT warm-up do not count in the
     * first start; then waits until the runtime's threads from it are gone again, so that the baseline holds none.
     */
    private void warmUp(RuntimeOptions options) throws InterruptedException {
        Footprint initial = Footprint.take(false);
        UnifiedRuntime.builder(config(2, 0.5)).options(options).start().close();
        if (!waitFor(Duration.ofSeconds(30), () -> {
            Footprint now = Footprint.take(false);
            return now.children() == 0 && now.activeThreads() <= initial.activeThreads();
        })) {
            System.out.println("warm-up: its threads did not end within 30 s: " + delta(initial, Footprint.take(false)));
        }
    }

    private static String describe(Footprint f) {
        return String.format(Locale.ROOT, "%d threads (%d at work, %d of them JDK process reapers; %d OS threads), %d"
                + " fds, %d child processes, heap after GC %d KiB", f.threads(), f.activeThreads(), f.busyReapers(),
                f.osThreads(), f.fds(), f.children(), f.heapAfterGcKiB());
    }

    private static Map<String, Integer> delta(Footprint before, Footprint after) {
        Map<String, Integer> delta = new TreeMap<>();
        after.threadGroups().forEach((name, n) -> {
            int d = n - before.threadGroups().getOrDefault(name, 0);
            if (d != 0) {
                delta.put(name, d);
            }
        });
        before.threadGroups().forEach((name, n) -> {
            if (!after.threadGroups().containsKey(name)) {
                delta.put(name, -n);
            }
        });
        return delta;
    }

    /**
     * The floor of an event-line call with the same modules alive: {@code runs} runs of the event-line daemon from
     * {@code threads} threads with a bare {@link ProcessBuilder} (start, read its first line, SIGTERM, wait), in
     * this JVM, so with the same threads and descriptors as the calls above.
     */
    private void bareFloor(int runs, int threads) throws InterruptedException {
        AtomicLong next = new AtomicLong();
        LongAdder ok = new LongAdder();
        List<Thread> workers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                while (next.getAndIncrement() < runs) {
                    try {
                        Process process = new ProcessBuilder("sh", eventLineDaemon.toString(), "bare").start();
                        String line = new java.io.BufferedReader(new java.io.InputStreamReader(
                                process.getInputStream(), java.nio.charset.StandardCharsets.UTF_8)).readLine();
                        process.destroy();
                        process.waitFor();
                        process.getInputStream().close();
                        process.getErrorStream().close();
                        process.getOutputStream().close();
                        if (line != null && line.contains("\"pid\"")) {
                            ok.increment();
                        }
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }, "scale-bare-" + t);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "bare ProcessBuilder floor: %d runs from %d threads in %.1f s (%.0f runs/s),"
                + " %d answered%n", runs, threads, seconds, runs / seconds, ok.sum());
    }

    /** Routes {@code calls} calls to random loaded modules from {@code threads} threads; every answer is checked. */
    private static void route(UnifiedRuntime runtime, int calls, int threads, String kinds)
            throws InterruptedException {
        List<String> ids = runtime.loadedModules().stream()
                .filter(id -> kinds.equals("all") || kinds.equals(id.startsWith("mcp-") ? "mcp" : "eventline"))
                .collect(Collectors.toList());
        if (ids.isEmpty() || calls == 0) {
            return;
        }
        AtomicLong next = new AtomicLong();
        LongAdder mcpOk = new LongAdder();
        LongAdder eventLineOk = new LongAdder();
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        List<Thread> callers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            Thread caller = new Thread(() -> {
                long n;
                while ((n = next.getAndIncrement()) < calls) {
                    String id = ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
                    boolean mcp = id.startsWith("mcp-");
                    try {
                        ModuleRouteResponse response = runtime.routeModuleCall(new ModuleRouteRequest(id,
                                mcp ? "echo" : "run", mcp ? JSON.objectNode().put("n", n) : null), CALL_TIMEOUT);
                        JsonNode payload = response.payload();
                        if (mcp && payload.path("n").asLong(-1) == n) {
                            mcpOk.increment();
                        } else if (!mcp && payload.path("pid").asLong(-1) > 0) {
                            eventLineOk.increment();
                        } else {
                            errors.computeIfAbsent("wrong answer", k -> new LongAdder()).increment();
                        }
                    } catch (ModuleRouteException e) {
                        errors.computeIfAbsent(e.error().getClass().getSimpleName() + ": " + e.getMessage(),
                                k -> new LongAdder()).increment();
                    } catch (RuntimeException e) {
                        errors.computeIfAbsent(e.toString(), k -> new LongAdder()).increment();
                    }
                }
            }, "scale-caller-" + t);
            caller.start();
            callers.add(caller);
        }
        for (Thread caller : callers) {
            caller.join();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long failed = errors.values().stream().mapToLong(LongAdder::sum).sum();
        long answered = mcpOk.sum() + eventLineOk.sum();
        System.out.printf(Locale.ROOT, "calls: %d issued from %d threads to %d modules in %.1f s (%.0f calls/s):"
                        + " %d MCP and %d event-line answered correctly, %d failed, %d lost%n", calls, threads,
                ids.size(), seconds, calls / seconds, mcpOk.sum(), eventLineOk.sum(), failed, calls - answered - failed);
        errors.forEach((error, n) -> System.out.printf(Locale.ROOT, "  %d x %s%n", n.sum(), error));
    }

    /**
     * Waits (bounded) until the JVM is back to {@code before}: no child process, no descriptor and no thread more;
     * the JDK's own idle pools ({@code process reaper}, common pool) are allowed 90 s to time out.
     */
    private static void verifyNothingLeft(Footprint before, boolean waitJdkPools) throws InterruptedException {
        long t0 = System.nanoTime();
        boolean ours = waitFor(Duration.ofSeconds(30), () -> {
            Footprint now = Footprint.take(false);
            return now.children() == 0 && now.fds() <= before.fds() && now.activeThreads() <= before.activeThreads();
        });
        Footprint now = Footprint.take(true);
        System.out.printf(Locale.ROOT, "after close (%.1f s): %s; left: %d processes, %d fds, %d threads of the"
                        + " runtime%s%n", (System.nanoTime() - t0) / 1e9, describe(now), now.children(),
                now.fds() - before.fds(), now.activeThreads() - before.activeThreads(),
                ours ? "" : " (NOT BACK TO BASELINE: " + delta(before, now) + ")");
        if (!waitJdkPools) {
            return;
        }
        boolean all = waitFor(Duration.ofSeconds(90), () -> Footprint.take(false).threads() <= before.threads());
        now = Footprint.take(false);
        System.out.printf(Locale.ROOT, "after the JDK's idle pools timed out (%.1f s): %d threads (baseline %d)%s;"
                + " left: %s%n", (System.nanoTime() - t0) / 1e9, now.threads(), before.threads(),
                all ? "" : " (NOT BACK TO BASELINE)", delta(before, now));
    }

    private static boolean waitFor(Duration bound, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        return true;
    }

    // ------------------------------------------------------------------------------------------ startup mode

    /**
     * Whether one start costs more late in a big startup than early: the modules' first events carry the time each
     * child printed it, so the spread of the first and of the last tenth of them, divided by their count, is the
     * cost per module at the beginning and at the end of the startup.
     */
    private static double[] spacing(UnifiedRuntime runtime) {
        long[] times = runtime.mergedEvents().stream().filter(e -> e.eventId().startsWith("evt-el-"))
                .mapToLong(e -> e.timestampMs()).sorted().toArray();
        int tenth = times.length / 10;
        if (tenth < 2) {
            return new double[] {Double.NaN, Double.NaN};
        }
        return new double[] {(times[tenth] - times[0]) / (double) tenth,
                (times[times.length - 1] - times[times.length - 1 - tenth]) / (double) tenth};
    }

    private void startup() throws InterruptedException {
        List<Integer> sizes = intsArg("sizes", "10,100,1000");
        List<Integer> parallelisms = intsArg("parallelisms", "1,4,16");
        warmUp(options(1).build());
        System.out.println("| event-line modules | startupParallelism | start, ms | ms/module | loaded |"
                + " ms/module, first 10 % | ms/module, last 10 % |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
        for (int size : sizes) {
            MetaConfig config = config(size, 0);
            for (int parallelism : parallelisms) {
                long t0 = System.nanoTime();
                int loaded;
                try (UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(options(parallelism).build())
                        .start()) {
                    long nanos = System.nanoTime() - t0;
                    loaded = runtime.loadedModules().size();
                    double[] spacing = spacing(runtime);
                    System.out.printf(Locale.ROOT, "| %d | %d | %.0f | %.2f | %d | %.2f | %.2f |%n", size, parallelism,
                            nanos / 1e6, nanos / 1e6 / size, loaded, spacing[0], spacing[1]);
                }
                if (!waitFor(Duration.ofSeconds(30), () -> Footprint.take(false).children() == 0)) {
                    System.out.println("children left after close: " + Footprint.take(false).children());
                }
            }
        }
    }
}
