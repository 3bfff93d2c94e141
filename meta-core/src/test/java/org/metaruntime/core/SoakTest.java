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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.events.Subscription;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.internal.health.HealthTransitions;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;
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
 * <p>The run is bounded by calls, not by time, so a loaded host makes it slower, never thinner: it makes
 * {@code soak.calls} calls (300 in the build, 6000 with {@code -Psoak}), and goes on (up to four times as many) until
 * it has seen every outcome it checks. A child is killed after every {@link #KILL_EVERY_CALLS} calls; the runtime's
 * restarts run on an injected {@link ManualScheduler}, which the test runs as soon as one is pending; the health
 * transitions come from {@code subscribeHealth}. The faults are drawn from {@code soak.seed} (a fixed seed unless one
 * is given; the run logs it). A long run by hand: {@code mvn -B -q -pl meta-core -am verify
 * -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false -Dsoak.calls=100000 -Dsoak.seed=$RANDOM
 * -Djunit.jupiter.execution.timeout.mode=disabled}.
 */
@Timeout(300)
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
    /** A child is killed after every this many completed calls. */
    static final int KILL_EVERY_CALLS = 30;
    /** A module stopped by its restart intensity is restarted by hand after this many more completed calls. */
    static final int STOPPED_FOR_CALLS = 20;
    static final int MAX_RESTARTS = 3;
    static final Duration RESTART_WINDOW = Duration.ofSeconds(20);
    static final Duration BACKOFF_MAX = Duration.ofSeconds(1);
    /** How far apart two clock readings of one restart may be (the window's and the transition's). */
    static final Duration CLOCK_SLACK = Duration.ofSeconds(2);
    /** The bound of every wait on a health transition. */
    static final Duration TRANSITION_WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /** One routed call and how it ended. */
    record Outcome(String moduleId, String op, String token, String kind, String detail, long millis) {
    }

    /**
     * What the run waits on: every health transition ({@code subscribeHealth}), every restart the runtime schedules
     * on the manual scheduler, and every {@link #KILL_EVERY_CALLS}-th completed call. Waits are bounded and end at
     * the next such event, never after a fixed sleep.
     */
    static final class Signals implements Consumer<ModuleHealthTransition>, Scheduler {
        final ManualScheduler restarts = new ManualScheduler();
        private final List<ModuleHealthTransition> transitions = new ArrayList<>();
        private long events;

        @Override
        public void accept(ModuleHealthTransition transition) {
            synchronized (this) {
                transitions.add(transition);
            }
            signal();
        }

        @Override
        public Cancellable schedule(Runnable task, Duration delay) {
            Cancellable scheduled = restarts.schedule(task, delay);
            signal();
            return scheduled;
        }

        synchronized void signal() {
            events++;
            notifyAll();
        }

        synchronized List<ModuleHealthTransition> transitions() {
            return List.copyOf(transitions);
        }

        /** Runs the pending restarts at each event until {@code condition} holds; false when {@code wait} passed. */
        boolean await(BooleanSupplier condition, Duration wait) throws InterruptedException {
            long deadline = System.nanoTime() + wait.toNanos();
            while (true) {
                long seen;
                synchronized (this) {
                    seen = events;
                }
                restarts.runPending();
                if (condition.getAsBoolean()) {
                    return true;
                }
                synchronized (this) {
                    while (events == seen) {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            return false;
                        }
                        TimeUnit.NANOSECONDS.timedWait(this, left);
                    }
                }
            }
        }
    }

    /** The outcomes seen so far, and whether the run has seen every kind it checks. */
    static final class Coverage {
        private final Set<String> kinds = ConcurrentHashMap.newKeySet();
        private final AtomicInteger completed = new AtomicInteger();

        /** Counts {@code outcome}; returns how many calls have completed. */
        int add(Outcome outcome) {
            kinds.add(kind(outcome));
            return completed.incrementAndGet();
        }

        int completed() {
            return completed.get();
        }

        boolean complete() {
            return REQUIRED.stream().allMatch(required -> kinds.stream().anyMatch(k -> k.startsWith(required)));
        }

        static final List<String> REQUIRED = List.of("garbage payload", "hang error ModuleRuntime:Timeout",
                "slow error ModuleRuntime:Timeout", "run error ModuleRuntime:InvalidJson",
                "run error ModuleRuntime:Timeout", "ModuleUnavailable");

        static String kind(Outcome o) {
            return o.kind().equals("error") && o.detail().startsWith("ModuleUnavailable[") ? "ModuleUnavailable"
                    : o.op() + " " + o.kind() + (o.kind().equals("error")
                    ? " " + o.detail().replaceAll("\\[.*", "") + ":" + shortError(o.detail()) : "");
        }
    }

    @Test
    void callsUnderKillsHangsAndGarbageAllCompleteAndNothingIsLeft() throws Exception {
        long calls = Long.getLong("soak.calls", 300);
        long seed = Long.getLong("soak.seed", 20261205L);
        LOG.info("soak: {} calls, seed {}", calls, seed);
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

        Signals signals = new Signals();
        UnifiedRuntime.Builder builder = UnifiedRuntime.builder(config.build()).options(options().build())
                .scheduler(signals);
        UnifiedRuntime runtime = builder.start();
        List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        Map<String, AtomicInteger> kills = new ConcurrentHashMap<>();
        AtomicInteger manualRestarts = new AtomicInteger();
        Coverage coverage = new Coverage();
        AtomicBoolean victimDone = new AtomicBoolean();
        AtomicBoolean callersDone = new AtomicBoolean();
        Subscription health = runtime.subscribeHealth(signals);
        int beforeSubscribed = runtime.moduleHealthTransitions().size();   // the start's, told to no subscriber
        RuntimeShutdownReport report;
        try {
            assertThat(runtime.loadedModules()).containsExactlyElementsOf(all);
            AtomicLong issued = new AtomicLong();
            BooleanSupplier more = () -> {
                long n = issued.incrementAndGet();
                return n <= calls || n <= 4 * calls && !(coverage.complete() && victimDone.get());
            };
            ExecutorService threads = Executors.newFixedThreadPool(CALLERS + 1);
            List<Future<?>> callers = new ArrayList<>();
            Future<?> chaos = threads.submit(() -> chaos(runtime, signals, all, new Random(seed), coverage, kills,
                    manualRestarts, victimDone, callersDone));
            AtomicInteger tokens = new AtomicInteger();
            for (int i = 0; i < CALLERS; i++) {
                Random random = new Random(seed + 1 + i);
                callers.add(threads.submit(() -> {
                    while (more.getAsBoolean()) {
                        String id = all.get(random.nextInt(all.size()));
                        String token = "call-" + tokens.incrementAndGet();
                        Outcome outcome = mcp.contains(id) ? callMcp(runtime, id, pickOp(random), token)
                                : callEventLine(runtime, id, token);
                        outcomes.add(outcome);
                        if (coverage.add(outcome) % KILL_EVERY_CALLS == 0) {
                            signals.signal();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> caller : callers) {
                caller.get(240, TimeUnit.SECONDS);
            }
            callersDone.set(true);
            signals.signal();
            chaos.get(120, TimeUnit.SECONDS);
            // let the last failures settle: every module healthy again, or stopped by its intensity
            assertThat(signals.await(() -> runtime.supervisorReport().values().stream().allMatch(r ->
                    r.state() == ModuleHealthState.HEALTHY || r.state() == ModuleHealthState.STOPPED), TRANSITION_WAIT))
                    .as("every module healthy or stopped: %s", runtime.supervisorReport()).isTrue();
            threads.shutdownNow();
            assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            List<ModuleHealthTransition> log = runtime.moduleHealthTransitions();
            assertThat(signals.await(() -> toldSince(log, signals.transitions(), beforeSubscribed), TRANSITION_WAIT))
                    .as("every transition since the subscription told to the health subscriber").isTrue();

            Map<String, ModuleSupervisorReport> reports = runtime.supervisorReport();
            checkTransitions(log, signals.transitions(), beforeSubscribed);
            checkIntensity(all, log);
            for (String id : all) {
                long automatic = log.stream().filter(t -> t.moduleId().equals(id)
                        && t.from() == ModuleHealthState.FAILED && t.to() == ModuleHealthState.RESTARTING).count();
                long manual = log.stream().filter(t -> t.moduleId().equals(id)
                        && t.from() == ModuleHealthState.STOPPED).count();
                assertThat(reports.get(id).restarts()).as("restarts of %s", id).isEqualTo(automatic + manual);
            }
            assertThat(signals.restarts.requestedDelays()).as("restart delays asked of the scheduler").isNotEmpty()
                    .allMatch(delay -> !delay.isNegative() && delay.compareTo(BACKOFF_MAX) <= 0);
            checkOutcomes(outcomes, mcp, eventLine);
            summarize(outcomes, kills, manualRestarts.get(), reports);
        } finally {
            health.close();
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

    /**
     * An event-line module whose runs after the first hang and print garbage {@code faultPercent} % each; a restart
     * whose run hangs fails after a run's own bound, {@link #EVENT_LINE_TIMEOUT}.
     */
    private ModuleConfig eventLineModule(String python, String id, int faultPercent) {
        return ModuleConfig.builder(id).command(python, FixtureScripts.eventLineModule().toString())
                .startupTimeout(EVENT_LINE_TIMEOUT)
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
                .supervisionBackoff(Duration.ofMillis(100)).supervisionBackoffMax(BACKOFF_MAX)
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
        // slow answers once the caller's timeout has cancelled it: the late answer must be dropped
        JsonNode params = MAPPER.createObjectNode().put("token", token)
                .put("until_cancelled", true).put("answer_even_if_cancelled", true);
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

    /**
     * Kills a random module's current child after every {@link #KILL_EVERY_CALLS} completed calls, runs the
     * restarts the runtime schedules as soon as they are pending, and restarts by hand a module stopped by its
     * intensity once {@link #STOPPED_FOR_CALLS} more calls have completed. Every wait ends at the next health
     * transition, scheduled restart or completed call.
     */
    private static Void chaos(UnifiedRuntime runtime, Signals signals, List<String> ids, Random random,
                              Coverage coverage, Map<String, AtomicInteger> kills, AtomicInteger manualRestarts,
                              AtomicBoolean victimDone, AtomicBoolean callersDone) throws InterruptedException {
        // one module is killed until its intensity is exceeded, then restarted by hand: every run sees both, however
        // short (this phase is bounded by its kills, not by the number of calls)
        String victim = ids.get(random.nextInt(ids.size()));
        for (int i = 0; i <= 2 * MAX_RESTARTS + 2; i++) {
            assertThat(signals.await(() -> runtime.supervisorReport().get(victim).state()
                    != ModuleHealthState.RESTARTING, TRANSITION_WAIT)).as("%s restarted", victim).isTrue();
            ModuleSupervisorReport before = runtime.supervisorReport().get(victim);
            if (before.state() == ModuleHealthState.STOPPED) {
                // the callers see it unavailable for a while first
                int stoppedAt = coverage.completed();
                signals.await(() -> coverage.completed() >= stoppedAt + STOPPED_FOR_CALLS || callersDone.get(),
                        TRANSITION_WAIT);
                manualRestarts.incrementAndGet();
                LOG.info("soak: restarting '{}' by hand: {}", victim, runtime.restartModule(victim));
                break;
            }
            kill(runtime, signals, victim, kills);
        }
        victimDone.set(true);
        Map<String, Integer> stoppedAt = new TreeMap<>();
        int nextKill = coverage.completed() + KILL_EVERY_CALLS;
        while (!callersDone.get()) {
            int killAt = nextKill;
            signals.await(() -> callersDone.get() || coverage.completed() >= killAt
                    || anyStoppedLongEnough(runtime, stoppedAt, coverage), TRANSITION_WAIT);
            if (coverage.completed() >= nextKill) {
                kill(runtime, signals, ids.get(random.nextInt(ids.size())), kills);
                nextKill = coverage.completed() + KILL_EVERY_CALLS;
            }
            for (Map.Entry<String, ModuleSupervisorReport> entry : runtime.supervisorReport().entrySet()) {
                if (entry.getValue().state() != ModuleHealthState.STOPPED) {
                    stoppedAt.remove(entry.getKey());
                } else if (coverage.completed() - stoppedAt.computeIfAbsent(entry.getKey(),
                        k -> coverage.completed()) >= STOPPED_FOR_CALLS) {
                    stoppedAt.remove(entry.getKey());
                    manualRestarts.incrementAndGet();
                    LOG.info("soak: restarting '{}' by hand: {}", entry.getKey(), runtime.restartModule(entry.getKey()));
                }
            }
        }
        return null;
    }

    /** Whether a module has been stopped for {@link #STOPPED_FOR_CALLS} calls (noting newly stopped ones). */
    private static boolean anyStoppedLongEnough(UnifiedRuntime runtime, Map<String, Integer> stoppedAt,
                                                Coverage coverage) {
        boolean due = false;
        for (Map.Entry<String, ModuleSupervisorReport> entry : runtime.supervisorReport().entrySet()) {
            if (entry.getValue().state() == ModuleHealthState.STOPPED) {
                int since = stoppedAt.computeIfAbsent(entry.getKey(), k -> coverage.completed());
                due |= coverage.completed() - since >= STOPPED_FOR_CALLS;
            }
        }
        return due;
    }

    /**
     * Kills {@code id}'s process if it is healthy, and waits until the runtime has seen the kill (the module left
     * that incarnation), so that no kill is still unseen when the chaos ends.
     */
    private static void kill(UnifiedRuntime runtime, Signals signals, String id, Map<String, AtomicInteger> kills)
            throws InterruptedException {
        ModuleSupervisorReport before = runtime.supervisorReport().get(id);
        if (before.state() != ModuleHealthState.HEALTHY || before.pid().isEmpty()) {
            return;
        }
        ProcessHandle.of(before.pid().getAsLong()).ifPresent(process -> {
            if (process.destroyForcibly()) {
                kills.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
            }
        });
        assertThat(signals.await(() -> {
            ModuleSupervisorReport now = runtime.supervisorReport().get(id);
            return now.state() != ModuleHealthState.HEALTHY || !now.pid().equals(before.pid());
        }, TRANSITION_WAIT)).as("kill of %s seen", id).isTrue();
    }

    // ------------------------------------------------------------------------------------------------ checks

    /** Whether {@code told} is the end of {@code log}, from {@code since} at the latest. */
    private static boolean toldSince(List<ModuleHealthTransition> log, List<ModuleHealthTransition> told, int since) {
        return told.size() >= log.size() - since && told.size() <= log.size()
                && log.subList(log.size() - told.size(), log.size()).equals(told);
    }

    /**
     * The health subscriber was told the whole log after its subscription ({@code since} at the latest), in order,
     * and each module's transitions chain legally.
     */
    private static void checkTransitions(List<ModuleHealthTransition> transitions, List<ModuleHealthTransition> told,
                                         int since) {
        assertThat(toldSince(transitions, told, since)).as("told %s of %s", told, transitions).isTrue();
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
     * and a module is stopped only when the window is full. Times are the transitions' own ({@code atMs}); the
     * bounds allow {@link #CLOCK_SLACK}.
     */
    private static void checkIntensity(List<String> ids, List<ModuleHealthTransition> transitions) {
        long window = RESTART_WINDOW.toMillis();
        long slack = CLOCK_SLACK.toMillis();
        for (String id : ids) {
            List<Long> restarts = new ArrayList<>();
            for (ModuleHealthTransition t : transitions) {
                if (!t.moduleId().equals(id)) {
                    continue;
                }
                if (t.from() == ModuleHealthState.STOPPED) {
                    restarts.clear();   // a manual restart forgets the window
                } else if (t.from() == ModuleHealthState.FAILED && t.to() == ModuleHealthState.RESTARTING) {
                    restarts.add(t.atMs());
                    if (restarts.size() > MAX_RESTARTS) {
                        long span = restarts.get(restarts.size() - 1) - restarts.get(restarts.size() - 1 - MAX_RESTARTS);
                        assertThat(span).as("%s: %d restarts within %d ms", id, MAX_RESTARTS + 1, span)
                                .isGreaterThanOrEqualTo(window - slack);
                    }
                } else if (t.from() == ModuleHealthState.FAILED && t.to() == ModuleHealthState.STOPPED) {
                    long inWindow = restarts.stream().filter(at -> at > t.atMs() - window - slack).count();
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
        List<String> kinds = outcomes.stream().map(Coverage::kind).distinct().toList();
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
        assertThat(Coverage.REQUIRED).allMatch(required -> kinds.stream().anyMatch(k -> k.startsWith(required)));
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
