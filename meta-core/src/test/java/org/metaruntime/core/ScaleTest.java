package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ModuleSupervisorReport;

/**
 * A reduced run of the scale harness ({@code benchmarks/.../scale/ScaleHarness}): 100 real modules (50 mawk MCP
 * servers, 50 sh event-line modules that stay alive) in one runtime, calls to random modules from 16 threads, and a
 * close that gives back every process, thread and descriptor taken since a baseline. Linux only ({@code /proc}).
 */
@Timeout(180)
class ScaleTest {

    private static final int MODULES = 100;
    private static final int CALLERS = 16;
    private static final int CALLS_PER_CALLER = 100;
    /** Threads the runtime shares between modules: stdin writers, timers, exit delivery, workers. */
    private static final int SHARED_THREADS = 12;
    private static final Duration T = Duration.ofSeconds(30);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @BeforeAll
    static void requireTools() {
        try {
            Process probe = new ProcessBuilder("mawk", "-W", "version").redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            if (!probe.waitFor(10, TimeUnit.SECONDS) || probe.exitValue() != 0) {
                throw new IOException("mawk -W version failed");
            }
        } catch (IOException | InterruptedException e) {
            if (System.getenv("CI") != null) {
                fail("mawk is required by this test: " + e);
            }
            Assumptions.abort("mawk is not available: " + e);
        }
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs Linux /proc");
    }

    @Test
    void hundredModulesAnswerCallsFrom16ThreadsAndCloseGivesEverythingBack() throws Exception {
        warmUp();
        Baseline before = Baseline.take();
        MetaConfig config = config(MODULES, MODULES / 2);
        List<Long> modulePids = new ArrayList<>();
        Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();
        AtomicInteger mcpAnswers = new AtomicInteger();
        AtomicInteger eventLineAnswers = new AtomicInteger();
        Set<Long> seenChildren = ConcurrentHashMap.newKeySet();

        try (UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(options(4).build()).start()) {
            assertThat(runtime.loadedModules()).hasSize(MODULES);
            for (ModuleSupervisorReport report : runtime.supervisorReport().values()) {
                assertThat(report.state()).isEqualTo(ModuleHealthState.HEALTHY);
                report.pid().ifPresent(modulePids::add);
            }
            assertThat(modulePids).hasSize(MODULES);

            // Threads and descriptors per module while every module is up and idle.
            Baseline during = Baseline.take();
            assertThat(during.threads - before.threads).as("threads for %d modules", MODULES)
                    .isLessThanOrEqualTo(3 * MODULES + SHARED_THREADS);
            assertThat(ownThreadsPerModule()).allSatisfy((id, n) -> assertThat(n).as(id).isLessThanOrEqualTo(2));
            assertThat(during.fds - before.fds).as("file descriptors for %d modules", MODULES)
                    .isLessThanOrEqualTo(3 * MODULES);

            List<String> ids = new ArrayList<>(runtime.loadedModules());
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < CALLERS; t++) {
                Random random = new Random(t);
                int caller = t;
                Thread thread = new Thread(() -> {
                    for (int i = 0; i < CALLS_PER_CALLER; i++) {
                        String id = ids.get(random.nextInt(ids.size()));
                        boolean mcp = id.startsWith("mcp-");
                        long n = caller * 1_000_000L + i;
                        try {
                            JsonNode payload = runtime.routeModuleCall(new ModuleRouteRequest(id, mcp ? "echo" : "run",
                                    mcp ? JSON.objectNode().put("n", n) : null), T).payload();
                            if (mcp && payload.path("n").asLong(-1) == n) {
                                mcpAnswers.incrementAndGet();
                            } else if (!mcp && payload.path("pid").asLong(-1) > 0) {
                                seenChildren.add(payload.path("pid").asLong());
                                eventLineAnswers.incrementAndGet();
                            } else {
                                errors.computeIfAbsent(id + ": wrong answer " + payload, k -> new AtomicInteger())
                                        .incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            errors.computeIfAbsent(id + ": " + e, k -> new AtomicInteger()).incrementAndGet();
                        }
                    }
                }, "scale-test-caller-" + t);
                thread.start();
                callers.add(thread);
            }
            for (Thread thread : callers) {
                thread.join();
            }
            assertThat(errors).isEmpty();
            assertThat(mcpAnswers.get() + eventLineAnswers.get()).isEqualTo(CALLERS * CALLS_PER_CALLER);
            assertThat(mcpAnswers.get()).isPositive();
            assertThat(eventLineAnswers.get()).isPositive();
            assertThat(runtime.supervisorReport().values()).allSatisfy(
                    report -> assertThat(report.state()).isEqualTo(ModuleHealthState.HEALTHY));
        }

        // Every process of the run is gone, and the JVM is back to its baseline: no descriptor and no thread more
        // (apart from the JDK's own idle pools: see Baseline).
        List<Long> allPids = new ArrayList<>(modulePids);
        allPids.addAll(seenChildren);
        await().atMost(15, TimeUnit.SECONDS).untilAsserted(() -> {
            assertThat(allPids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)
                    .orElse(false)).as("process %d is alive", pid).isFalse());
            Baseline after = Baseline.take();
            assertThat(after.children).as("child processes").isSubsetOf(before.children);
            assertThat(after.fds).as("file descriptors: %s", after.fdTargets).isLessThanOrEqualTo(before.fds);
            assertThat(after.threads).as("threads: %s", after.threadNames).isLessThanOrEqualTo(before.threads);
        });
    }

    @Test
    void sequentialAndParallelStartupKeepEachModulesBlockInDiscoveryOrder() {
        MetaConfig config = config(20, 0);
        for (int parallelism : List.of(1, 8)) {
            List<Long> pids = new ArrayList<>();
            try (UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(options(parallelism).build())
                    .start()) {
                assertThat(runtime.loadedModules()).containsExactlyElementsOf(config.discovery().modules());
                runtime.supervisorReport().values().forEach(report -> report.pid().ifPresent(pids::add));
                List<String> expected = new ArrayList<>();
                for (String id : config.discovery().modules()) {
                    expected.add(id + ":null->STARTING");
                    expected.add(id + ":STARTING->HEALTHY");
                }
                assertThat(runtime.moduleHealthTransitions()).extracting(ScaleTest::describe)
                        .as("startupParallelism %d", parallelism).containsExactlyElementsOf(expected);
            }
            assertThat(pids).hasSize(20);
            await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> assertThat(pids).allSatisfy(pid -> assertThat(
                    ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse()));
        }
    }

    /**
     * One module of each kind, one call each, then close: what the JVM opens once for its lifetime (class files,
     * {@code /dev/urandom}) is then open in the baseline. Waits until the runtime's threads from it are gone.
     */
    private static void warmUp() {
        try (UnifiedRuntime runtime = UnifiedRuntime.builder(config(2, 1)).options(options(1).build()).start()) {
            for (String id : runtime.loadedModules()) {
                runtime.routeModuleCall(new ModuleRouteRequest(id, id.startsWith("mcp-") ? "echo" : "run",
                        JSON.objectNode().put("n", 1)), T);
            }
        }
        await().atMost(20, TimeUnit.SECONDS).untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
                .extracting(Thread::getName).noneMatch(name -> name.startsWith("meta-")));
    }

    private static String describe(ModuleHealthTransition transition) {
        return transition.moduleId() + ":" + transition.from() + "->" + transition.to();
    }

    /** {@code modules} modules, {@code mcp} of them MCP servers, interleaved. */
    private static MetaConfig config(int modules, int mcp) {
        MetaConfig.Builder config = MetaConfig.builder();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < modules; i++) {
            boolean isMcp = (long) i * mcp / modules != (long) (i + 1) * mcp / modules;
            String id = String.format("%s-%03d", isMcp ? "mcp" : "el", i);
            if (isMcp) {
                config.module(ModuleConfig.builder(id)
                        .command("mawk", "-W", "interactive", "-f", resource("mcp_server.awk")).build());
                config.preSpawn(PreSpawnData.mcp(id));
            } else {
                config.module(ModuleConfig.builder(id).command("sh", resource("eventline_daemon.sh"), id).build());
            }
            ids.add(id);
        }
        return config.discover(ids.toArray(new String[0])).build();
    }

    private static RuntimeOptions.Builder options(int parallelism) {
        // A routed call to an event-line module returns its first line and stops the process at once.
        return RuntimeOptions.builder().startupParallelism(parallelism).startupTimeout(T).shutdownHook(false)
                .eventLineExitGrace(Duration.ZERO).stopStdinGrace(Duration.ofMillis(200));
    }

    private static String resource(String name) {
        try {
            return Path.of(ScaleTest.class.getResource("/scale/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Threads named {@code meta-<moduleId>-*}, per module. */
    private static Map<String, Long> ownThreadsPerModule() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.startsWith("meta-mcp-") || name.startsWith("meta-el-"))
                .filter(name -> name.endsWith("-stdout") || name.endsWith("-stderr"))
                .collect(Collectors.groupingBy(name -> name.substring(0, name.lastIndexOf('-')),
                        Collectors.counting()));
    }

    /**
     * Live threads, open descriptors (but jar files) and live child processes of the JVM. The threads leave out the JDK's idle pools
     * (an idle {@code process reaper}, the common pool), which time out after 60 s; a reaper waiting for a child is
     * named {@code process reaper (pid N)} and counts. Awaitility's poller thread is left out too.
     */
    private static final class Baseline {
        final int threads;
        final List<String> threadNames;
        final int fds;
        final List<String> fdTargets;
        final Set<Long> children;

        private Baseline(List<String> threadNames, List<String> fdTargets, Set<Long> children) {
            this.threads = threadNames.size();
            this.threadNames = threadNames;
            this.fds = fdTargets.size();
            this.fdTargets = fdTargets;
            this.children = children;
        }

        static Baseline take() throws IOException {
            List<String> names = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                    .map(Thread::getName)
                    .filter(name -> !name.equals("process reaper") && !name.startsWith("ForkJoinPool.commonPool")
                            && !name.startsWith("awaitility"))
                    .sorted().collect(Collectors.toList());
            List<String> fds = new ArrayList<>();
            try (Stream<Path> entries = Files.list(Path.of("/proc/self/fd"))) {
                for (Path fd : entries.collect(Collectors.toList())) {
                    try {
                        String target = Files.readSymbolicLink(fd).toString();
                        if (!target.endsWith(".jar")) { // jars are opened by class loading, once for the JVM
                            fds.add(target);
                        }
                    } catch (IOException closedMeanwhile) {
                        // the descriptor of the listing itself, or one closed while listing
                    }
                }
            }
            Set<Long> children = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                    .map(ProcessHandle::pid).collect(Collectors.toSet());
            return new Baseline(names, fds, children);
        }
    }
}
