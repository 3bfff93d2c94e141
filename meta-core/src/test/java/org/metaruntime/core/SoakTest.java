package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.internal.health.HealthTransitions;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.ProcessLeaks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Soak with faults: ten real modules (five persistent MCP servers, five event-line modules, all small python
 * programs), sixteen threads routing calls, while children are killed with SIGKILL, made to hang and made to print
 * garbage. Checks that every call completes once, in time, with its own answer or a typed error; that the health
 * transitions are legal and the restart intensity holds; and that nothing is left after close.
 *
 * <p>A run lasts {@code soak.seconds}: 15 in the build, 150 with {@code -Psoak}. A long run by hand, e.g. 30 minutes:
 * {@code mvn -B -q -pl meta-core -am verify -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dsoak.seconds=1800 -Djunit.jupiter.execution.timeout.mode=disabled}.
 */
@Timeout(180)
class SoakTest {

    private static final Logger LOG = LoggerFactory.getLogger(SoakTest.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    static final int MCP_MODULES = 5;
    static final int EVENT_LINE_MODULES = 5;
    static final int CALLERS = 16;
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    static final Duration HANG_TIMEOUT = Duration.ofMillis(800);
    /** An event-line run's timeout: a python start on a loaded host can take seconds. */
    static final Duration EVENT_LINE_TIMEOUT = Duration.ofSeconds(5);
    /** How long past its timeout a call may take to complete before it counts as lost (generous: the host is shared). */
    static final Duration MARGIN = Duration.ofSeconds(15);
    static final Duration KILL_EVERY = Duration.ofMillis(900);
    static final int MAX_RESTARTS = 3;
    static final Duration RESTART_WINDOW = Duration.ofSeconds(20);
    /** How late the observer may see a transition (its poll interval plus scheduling). */
    static final Duration OBSERVATION_SLACK = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    /** One routed call and how it ended. */
    record Outcome(String moduleId, String op, String token, String kind, String detail, long millis) {
    }

    /** A health transition and when the observer saw it (nanoTime). */
    record Seen(ModuleHealthTransition transition, long atNanos) {
    }

    @Test
    void callsUnderKillsHangsAndGarbageAllCompleteAndNothingIsLeft() throws Exception {
        long seconds = Long.getLong("soak.seconds", 35);
        long seed = Long.getLong("soak.seed", System.nanoTime());
        LOG.info("soak: {} s, seed {}", seconds, seed);
        String python = Fixtures.python();

        Set<Thread> threadBaseline = SoakSupport.metaThreads();
        warmUp(python);
        long[] fdBaseline = SoakSupport.openDescriptors();

        List<String> mcp = new ArrayList<>();
        List<String> eventLine = new ArrayList<>();
        MetaConfig.Builder config = MetaConfig.builder();
        for (int i = 0; i < MCP_MODULES; i++) {
            String id = "mcp" + i;
            mcp.add(id);
            config.module(ModuleConfig.builder(id).command(python, FixtureScripts.mcpServer().toString(), "--pid-file",
                    pidfile(id).toString()).build()).preSpawn(PreSpawnData.mcp(id));
        }
        for (int i = 0; i < EVENT_LINE_MODULES; i++) {
            String id = "line" + i;
            eventLine.add(id);
            config.module(eventLineModule(python, id));
        }
        List<String> all = new ArrayList<>(mcp);
        all.addAll(eventLine);
        config.discover(all.toArray(new String[0]));

        UnifiedRuntime runtime = UnifiedRuntime.builder(config.build()).options(options().build()).start();
        List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        Map<String, AtomicInteger> kills = new ConcurrentHashMap<>();
        AtomicInteger manualRestarts = new AtomicInteger();
        ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
        RuntimeShutdownReport report;
        try {
            assertThat(runtime.loadedModules()).containsExactlyElementsOf(all);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            ExecutorService threads = Executors.newFixedThreadPool(CALLERS + 2);
            List<Future<?>> workers = new ArrayList<>();
            Future<?> observer = threads.submit(() -> observe(runtime, seen));
            workers.add(threads.submit(() -> chaos(runtime, all, new Random(seed), deadline, kills, manualRestarts)));
            AtomicInteger tokens = new AtomicInteger();
            for (int i = 0; i < CALLERS; i++) {
                Random random = new Random(seed + 1 + i);
                workers.add(threads.submit(() -> {
                    while (System.nanoTime() < deadline) {
                        String id = all.get(random.nextInt(all.size()));
                        String token = "call-" + tokens.incrementAndGet();
                        outcomes.add(mcp.contains(id) ? callMcp(runtime, id, pickOp(random), token)
                                : callEventLine(runtime, id, token));
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(seconds + 120, TimeUnit.SECONDS);
            }
            // let the last failures settle: every module healthy again, or stopped by its intensity
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> runtime
                    .supervisorReport().values().stream().allMatch(r -> r.state() == ModuleHealthState.HEALTHY
                            || r.state() == ModuleHealthState.STOPPED));
            observer.cancel(true);
            threads.shutdownNow();
            assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            record(runtime, seen);

            Map<String, ModuleSupervisorReport> reports = runtime.supervisorReport();
            List<Seen> log = new ArrayList<>(seen);
            checkTransitions(runtime.moduleHealthTransitions(), log);
            checkIntensity(all, log);
            for (String id : all) {
                long automatic = log.stream().filter(s -> s.transition().moduleId().equals(id)
                        && s.transition().from() == ModuleHealthState.FAILED
                        && s.transition().to() == ModuleHealthState.RESTARTING).count();
                long manual = log.stream().filter(s -> s.transition().moduleId().equals(id)
                        && s.transition().from() == ModuleHealthState.STOPPED).count();
                assertThat(reports.get(id).restarts()).as("restarts of %s", id).isEqualTo(automatic + manual);
            }
            checkOutcomes(outcomes, mcp, eventLine);
            summarize(outcomes, kills, manualRestarts.get(), reports);
        } finally {
            report = runtime.shutdown();
        }

        assertThat(report.orphanProcesses()).isZero();
        assertThat(report.terminatedModules()).hasSize(all.size());
        List<ProcessLeaks.Spawned> spawned = new ArrayList<>();
        all.forEach(id -> spawned.addAll(SoakSupport.spawned(pidfile(id))));
        SoakSupport.assertAllGone(spawned, Duration.ofSeconds(10));
        awaitBaseline(threadBaseline, fdBaseline);
    }

    // ------------------------------------------------------------------------------------------------ setup

    private Path pidfile(String id) {
        return dir.resolve("pids-" + id);
    }

    private ModuleConfig eventLineModule(String python, String id) {
        return eventLineModule(python, id, 6);
    }

    /** An event-line module whose runs after the first hang and print garbage {@code faultPercent} % each. */
    private ModuleConfig eventLineModule(String python, String id, int faultPercent) {
        return ModuleConfig.builder(id).command(python, FixtureScripts.eventLineModule().toString())
                .env("FIXTURE_MODE", "chaos").env("FIXTURE_PIDFILE", pidfile(id).toString()).env("FIXTURE_MODULE", id)
                .env("FIXTURE_COUNTER", dir.resolve("count-" + id).toString())
                .env("FIXTURE_HANG_PERCENT", Integer.toString(faultPercent))
                .env("FIXTURE_GARBAGE_PERCENT", Integer.toString(faultPercent)).build();
    }

    static RuntimeOptions.Builder options() {
        return RuntimeOptions.builder().shutdownHook(false)
                .startupTimeout(Duration.ofSeconds(20))
                .stopStdinGrace(Duration.ofMillis(300)).stopTermGrace(Duration.ofMillis(500))
                .stopKillWait(Duration.ofSeconds(2))
                .eventLineExitGrace(Duration.ofMillis(100))
                .supervisionBackoff(Duration.ofMillis(100)).supervisionBackoffMax(Duration.ofSeconds(1))
                .maxRestarts(MAX_RESTARTS).restartWindow(RESTART_WINDOW);
    }

    /** Loads the classes and pools a run uses, so the descriptor baseline counts the JDK's own (jar files). */
    private void warmUp(String python) {
        MetaConfig config = MetaConfig.builder()
                .module(ModuleConfig.builder("warm").command(python, FixtureScripts.mcpServer().toString(),
                        "--pid-file", pidfile("warm").toString()).build())
                .module(eventLineModule(python, "warmline", 0))
                .discover("warm", "warmline").preSpawn(PreSpawnData.mcp("warm")).build();
        try (UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(options().build()).start()) {
            Outcome mcp = callMcp(runtime, "warm", "garbage", "warm-1");
            assertThat(mcp.kind()).as("%s", mcp).isEqualTo("payload");
            Outcome eventLine = callEventLine(runtime, "warmline", "warm-2");
            assertThat(eventLine.kind()).as("%s", eventLine).isEqualTo("payload");
        }
        List<ProcessLeaks.Spawned> spawned = new ArrayList<>(SoakSupport.spawned(pidfile("warm")));
        spawned.addAll(SoakSupport.spawned(pidfile("warmline")));
        SoakSupport.assertAllGone(spawned, Duration.ofSeconds(10));
    }

    // ------------------------------------------------------------------------------------------------ load

    private static String pickOp(Random random) {
        int roll = random.nextInt(100);
        return roll < 80 ? "whoami" : roll < 92 ? "garbage" : roll < 96 ? "hang" : "slow";
    }

    private static Outcome callMcp(UnifiedRuntime runtime, String id, String op, String token) {
        boolean answers = op.equals("whoami") || op.equals("garbage");
        Duration timeout = answers ? CALL_TIMEOUT : HANG_TIMEOUT;
        // slow answers after the caller's timeout, cancelled or not: the late answer must be dropped
        JsonNode params = MAPPER.createObjectNode().put("token", token)
                .put("ms", HANG_TIMEOUT.toMillis() + 400).put("answer_even_if_cancelled", true);
        return routeAndWait(runtime, new ModuleRouteRequest(id, op, params), timeout, op, token);
    }

    private static Outcome callEventLine(UnifiedRuntime runtime, String id, String token) {
        return routeAndWait(runtime, new ModuleRouteRequest(id, "run", MAPPER.createObjectNode().put("token", token)),
                EVENT_LINE_TIMEOUT, "run", token);
    }

    /** Routes one call and waits for it, at most its timeout plus {@link #MARGIN}; a longer wait is a lost call. */
    private static Outcome routeAndWait(UnifiedRuntime runtime, ModuleRouteRequest request, Duration timeout, String op,
                                 String token) {
        long start = System.nanoTime();
        CompletableFuture<ModuleRouteResponse> call = runtime.routeModuleCallAsync(request, timeout);
        String id = request.moduleId();
        try {
            ModuleRouteResponse response = call.get(timeout.plus(MARGIN).toMillis(), TimeUnit.MILLISECONDS);
            return new Outcome(id, op, token, "payload", response.payload().toString(), since(start));
        } catch (TimeoutException e) {
            return new Outcome(id, op, token, "lost", "no completion within " + timeout.plus(MARGIN), since(start));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ModuleRouteException) {
                return new Outcome(id, op, token, "error", ((ModuleRouteException) e.getCause()).error().toString(),
                        since(start));
            }
            return new Outcome(id, op, token, "untyped", String.valueOf(e.getCause()), since(start));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(id, op, token, "interrupted", "", since(start));
        }
    }

    private static long since(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /** SIGKILLs a random module's current child every {@link #KILL_EVERY}; restarts stopped modules by hand. */
    private static Void chaos(UnifiedRuntime runtime, List<String> ids, Random random, long deadline,
                              Map<String, AtomicInteger> kills, AtomicInteger manualRestarts) throws InterruptedException {
        // one module is killed until its intensity is exceeded, then restarted by hand: every run sees both, however
        // short (this phase is bounded by its kills, not by the run's deadline)
        String victim = ids.get(random.nextInt(ids.size()));
        for (int i = 0; i <= 2 * MAX_RESTARTS + 2; i++) {
            await().atMost(Duration.ofSeconds(30)).until(() -> runtime.supervisorReport().get(victim).state()
                    != ModuleHealthState.RESTARTING);
            ModuleSupervisorReport before = runtime.supervisorReport().get(victim);
            if (before.state() == ModuleHealthState.STOPPED) {
                manualRestarts.incrementAndGet();
                LOG.info("soak: restarting '{}' by hand: {}", victim, runtime.restartModule(victim));
                break;
            }
            kill(runtime, victim, kills);
            // the kill is seen once the module leaves this incarnation
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                ModuleSupervisorReport now = runtime.supervisorReport().get(victim);
                return now.state() != ModuleHealthState.HEALTHY || !now.pid().equals(before.pid());
            });
        }
        Map<String, Long> stoppedSince = new TreeMap<>();
        while (System.nanoTime() < deadline) {
            Thread.sleep(KILL_EVERY.toMillis() / 2 + random.nextInt((int) KILL_EVERY.toMillis()));
            kill(runtime, ids.get(random.nextInt(ids.size())), kills);
            long now = System.nanoTime();
            for (Map.Entry<String, ModuleSupervisorReport> entry : runtime.supervisorReport().entrySet()) {
                if (entry.getValue().state() != ModuleHealthState.STOPPED) {
                    stoppedSince.remove(entry.getKey());
                } else if (now - stoppedSince.computeIfAbsent(entry.getKey(), k -> now) > 2_000_000_000L) {
                    stoppedSince.remove(entry.getKey());
                    manualRestarts.incrementAndGet();
                    LOG.info("soak: restarting '{}' by hand: {}", entry.getKey(), runtime.restartModule(entry.getKey()));
                }
            }
        }
        return null;
    }

    private static void kill(UnifiedRuntime runtime, String id, Map<String, AtomicInteger> kills) {
        ModuleSupervisorReport report = runtime.supervisorReport().get(id);
        if (report.state() == ModuleHealthState.HEALTHY && report.pid().isPresent()) {
            ProcessHandle.of(report.pid().getAsLong()).ifPresent(process -> {
                if (process.destroyForcibly()) {
                    kills.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                }
            });
        }
    }

    /** Records each new health transition with the time it was first seen, until interrupted. */
    private static Void observe(UnifiedRuntime runtime, ConcurrentLinkedQueue<Seen> seen) {
        while (!Thread.currentThread().isInterrupted()) {
            record(runtime, seen);
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                return null;
            }
        }
        return null;
    }

    private static synchronized void record(UnifiedRuntime runtime, ConcurrentLinkedQueue<Seen> seen) {
        List<ModuleHealthTransition> all = runtime.moduleHealthTransitions();
        long now = System.nanoTime();
        for (int i = seen.size(); i < all.size(); i++) {
            seen.add(new Seen(all.get(i), now));
        }
    }

    // ------------------------------------------------------------------------------------------------ checks

    /** The observer saw the whole log, and each module's transitions chain legally. */
    private static void checkTransitions(List<ModuleHealthTransition> transitions, List<Seen> seen) {
        assertThat(seen.stream().map(Seen::transition).collect(Collectors.toList())).isEqualTo(transitions);
        Map<String, ModuleHealthState> state = new LinkedHashMap<>();
        for (ModuleHealthTransition t : transitions) {
            assertThat(HealthTransitions.isLegal(t.from(), t.to())).as("legal: %s", t).isTrue();
            if (t.from() != null) {
                assertThat(t.from()).as("chained: %s", t).isEqualTo(state.get(t.moduleId()));
            }
            state.put(t.moduleId(), t.to());
        }
    }

    /**
     * At most {@link #MAX_RESTARTS} automatic restarts in any {@link #RESTART_WINDOW} between two manual restarts,
     * and a module is stopped only when the window is full. Times are when the observer saw the transitions, so the
     * bounds allow {@link #OBSERVATION_SLACK}.
     */
    private static void checkIntensity(List<String> ids, List<Seen> seen) {
        long window = RESTART_WINDOW.toNanos();
        long slack = OBSERVATION_SLACK.toNanos();
        for (String id : ids) {
            List<Long> restarts = new ArrayList<>();
            for (Seen s : seen) {
                ModuleHealthTransition t = s.transition();
                if (!t.moduleId().equals(id)) {
                    continue;
                }
                if (t.from() == ModuleHealthState.STOPPED) {
                    restarts.clear();   // a manual restart forgets the window
                } else if (t.from() == ModuleHealthState.FAILED && t.to() == ModuleHealthState.RESTARTING) {
                    restarts.add(s.atNanos());
                    if (restarts.size() > MAX_RESTARTS) {
                        long span = restarts.get(restarts.size() - 1) - restarts.get(restarts.size() - 1 - MAX_RESTARTS);
                        assertThat(span).as("%s: %d restarts within %d ms", id, MAX_RESTARTS + 1, span / 1_000_000)
                                .isGreaterThanOrEqualTo(window - slack);
                    }
                } else if (t.from() == ModuleHealthState.FAILED && t.to() == ModuleHealthState.STOPPED) {
                    long inWindow = restarts.stream().filter(at -> at > s.atNanos() - window - slack).count();
                    assertThat(inWindow).as("%s stopped with %d restarts in the window", id, inWindow)
                            .isGreaterThanOrEqualTo(MAX_RESTARTS);
                }
            }
        }
    }

    private static void checkOutcomes(List<Outcome> outcomes, List<String> mcp, List<String> eventLine) throws Exception {
        List<String> wrong = new ArrayList<>();
        Set<String> tokens = new HashSet<>();
        Set<String> processTokens = new HashSet<>();
        for (Outcome o : outcomes) {
            if (!tokens.add(o.token())) {
                wrong.add("token used twice: " + o);
            }
            String problem = mcp.contains(o.moduleId()) ? checkMcp(o) : checkEventLine(o, processTokens);
            if (problem != null) {
                wrong.add(problem + ": " + o);
            }
        }
        assertThat(wrong).as("calls that did not end as they must (%d of %d)", wrong.size(), outcomes.size())
                .isEmpty();
        assertThat(outcomes).extracting(Outcome::kind).contains("payload", "error");
    }

    private static String checkMcp(Outcome o) throws Exception {
        boolean answers = o.op().equals("whoami") || o.op().equals("garbage");
        if (o.kind().equals("payload")) {
            if (!answers) {
                return "an answer to a call that never answers in time";
            }
            JsonNode payload = MAPPER.readTree(o.detail());
            return o.token().equals(payload.path("token").asText()) && o.op().equals(payload.path("tool").asText())
                    ? null : "the answer of another call";
        }
        if (!o.kind().equals("error")) {
            return "not completed with a typed error";
        }
        if (o.detail().startsWith("ModuleUnavailable[")) {
            return null;
        }
        if (!answers && o.detail().equals(new ModuleRouteError.ModuleRuntime(new RuntimeBoundaryError.Mcp(
                new McpBoundaryError.Timeout(o.moduleId(), "call_tool:" + o.op(), HANG_TIMEOUT.toMillis()))).toString())) {
            return null;
        }
        String died = "ModuleRuntime[error=Mcp[error=ToolCallFailed[moduleId=" + o.moduleId() + ", tool=" + o.op()
                + ", reason=";
        if (o.detail().startsWith(died) && (o.detail().contains("exited with code") || o.detail().contains("closed"))) {
            return null;
        }
        return "an unexpected error";
    }

    private static String checkEventLine(Outcome o, Set<String> processTokens) throws Exception {
        if (o.kind().equals("payload")) {
            String processToken = MAPPER.readTree(o.detail()).path("token").asText();
            return !processToken.isEmpty() && processTokens.add(processToken) ? null
                    : "an answer from a process that answered another call";
        }
        if (!o.kind().equals("error")) {
            return "not completed with a typed error";
        }
        List<String> allowed = List.of(
                new ModuleRouteError.ModuleRuntime(new RuntimeBoundaryError.Process(
                        new ProcessBoundaryError.Timeout(EVENT_LINE_TIMEOUT.toMillis()))).toString(),
                new ModuleRouteError.ModuleRuntime(new RuntimeBoundaryError.Normalize(
                        new NormalizationError.InvalidJson())).toString());
        return allowed.contains(o.detail()) || o.detail().startsWith("ModuleUnavailable[") ? null
                : "an unexpected error";
    }

    private static void summarize(List<Outcome> outcomes, Map<String, AtomicInteger> kills, int manualRestarts,
                                  Map<String, ModuleSupervisorReport> reports) {
        Map<String, Long> byKind = new TreeMap<>();
        for (Outcome o : outcomes) {
            String key = o.op() + " " + o.kind() + (o.kind().equals("error")
                    ? " " + o.detail().replaceAll("\\[.*", "") + ":" + shortError(o.detail()) : "");
            byKind.merge(key, 1L, Long::sum);
        }
        int killed = kills.values().stream().mapToInt(AtomicInteger::get).sum();
        int restarts = reports.values().stream().mapToInt(ModuleSupervisorReport::restarts).sum();
        Map<String, String> latency = new TreeMap<>();
        outcomes.stream().filter(o -> o.kind().equals("payload")).collect(Collectors.groupingBy(Outcome::op))
                .forEach((op, list) -> {
                    long[] ms = list.stream().mapToLong(Outcome::millis).sorted().toArray();
                    latency.put(op, "p50 " + ms[ms.length / 2] + " ms, p99 " + ms[(int) (ms.length * 0.99)]
                            + " ms, max " + ms[ms.length - 1] + " ms");
                });
        LOG.info("soak: {} calls, {} kills, {} restarts ({} by hand), outcomes {}, answered calls {}", outcomes.size(),
                killed, restarts, manualRestarts, byKind, latency);
        assertThat(killed).isPositive();
        assertThat(manualRestarts).as("a module stopped by its intensity was restarted by hand").isPositive();
        assertThat(byKind.keySet()).anyMatch(k -> k.startsWith("garbage payload"))
                .anyMatch(k -> k.startsWith("hang error ModuleRuntime:Timeout"))
                .anyMatch(k -> k.startsWith("slow error ModuleRuntime:Timeout"))
                .anyMatch(k -> k.startsWith("run error ModuleRuntime:InvalidJson"))
                .anyMatch(k -> k.startsWith("run error ModuleRuntime:Timeout"))
                .anyMatch(k -> k.contains("ModuleUnavailable"));
    }

    private static String shortError(String detail) {
        for (String name : List.of("ToolCallFailed", "Timeout", "InvalidJson", "ModuleUnavailable")) {
            if (detail.contains(name + "[")) {
                return name;
            }
        }
        return "other";
    }

    private static void awaitBaseline(Set<Thread> threadBaseline, long[] fdBaseline) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            assertThat(SoakSupport.newMetaThreads(threadBaseline)).as("meta-* threads left").isEmpty();
            long[] now = SoakSupport.openDescriptors();
            assertThat(now[1]).as("pipes open").isLessThanOrEqualTo(fdBaseline[1]);
            assertThat(now[0]).as("descriptors open").isLessThanOrEqualTo(fdBaseline[0] + 2);
        });
        assertThat(SoakSupport.liveDescendants()).isEmpty();
    }
}
