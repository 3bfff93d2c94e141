package org.metaruntime.supervisor.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.metaruntime.supervisor.ModuleHealthState.FAILED;
import static org.metaruntime.supervisor.ModuleHealthState.HEALTHY;
import static org.metaruntime.supervisor.ModuleHealthState.RESTARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STOPPED;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.supervisor.SupervisionOptions;
import org.metaruntime.supervisor.internal.manual.ManualClock;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;

class ModuleSupervisorTest {

    private static final String ID = "search";

    /** A child of the fake module; identity is what the supervisor compares. */
    static final class Child {
        final int attempt;

        Child(int attempt) {
            this.attempt = attempt;
        }

        @Override
        public String toString() {
            return "child#" + attempt;
        }
    }

    private final ManualClock clock = new ManualClock();
    private final ManualScheduler scheduler = new ManualScheduler(clock);
    /** Scripted outcomes of restart attempts: true succeeds, false fails; empty means succeed. */
    private final Deque<Boolean> restartOutcomes = new ArrayDeque<>();
    private final List<Integer> restartAttempts = Collections.synchronizedList(new ArrayList<>());
    private final List<Child> stopped = Collections.synchronizedList(new ArrayList<>());
    private final Recorder recorder = new Recorder();

    /** Records everything the supervisor tells its listeners. */
    static final class Recorder implements SupervisionListener<Child> {
        /** The transitions without their time, to compare with {@link #t}; {@link #times} has their times. */
        final List<ModuleHealthTransition> transitions = Collections.synchronizedList(new ArrayList<>());
        final List<Long> times = Collections.synchronizedList(new ArrayList<>());
        final List<Child> adopted = Collections.synchronizedList(new ArrayList<>());
        final List<ChildFailure> failures = Collections.synchronizedList(new ArrayList<>());
        final List<ChildFailure> stops = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onTransition(ModuleHealthTransition transition) {
            transitions.add(new ModuleHealthTransition(transition.moduleId(), transition.from(), transition.to(),
                    transition.attempt()));
            times.add(transition.atMs());
        }

        @Override
        public void onAdopted(Child child, int attempt) {
            assertThat(child.attempt).isEqualTo(attempt);
            adopted.add(child);
        }

        @Override
        public void onFailure(String moduleId, ChildFailure failure) {
            failures.add(failure);
        }

        @Override
        public void onStopped(String moduleId, ChildFailure lastFailure) {
            stops.add(lastFailure);
        }
    }

    private Child restart(int attempt) {
        restartAttempts.add(attempt);
        Boolean succeeds = restartOutcomes.poll();
        if (succeeds != null && !succeeds) {
            throw new IllegalStateException("restart attempt " + attempt + " failed");
        }
        return new Child(attempt);
    }

    private ModuleSupervisor.Builder<Child> builder(SupervisionOptions options) {
        return ModuleSupervisor.<Child>builder(ID, this::restart, stopped::add)
                .options(options)
                .clock(clock)
                .scheduler(scheduler).attemptExecutor(Runnable::run)
                .jitterSource(() -> 0.5)
                .listener(recorder);
    }

    private static SupervisionOptions options(int maxRestarts) {
        return SupervisionOptions.builder()
                .initialBackoff(Duration.ofMillis(100))
                .multiplier(2.0)
                .maxBackoff(Duration.ofSeconds(1))
                .jitter(0.2)
                .maxRestarts(maxRestarts)
                .restartWindow(Duration.ofSeconds(60))
                .build();
    }

    private static ModuleHealthTransition t(ModuleHealthState from, ModuleHealthState to, int attempt) {
        return new ModuleHealthTransition(ID, from, to, attempt);
    }

    private static ModuleHealthTransition untimed(ModuleHealthTransition t) {
        return new ModuleHealthTransition(t.moduleId(), t.from(), t.to(), t.attempt());
    }

    private static ChildFailure crash() {
        return ChildFailure.exited(1, "boom");
    }

    @Test
    void failureRestartsAfterTheBackoffAndAdoptsTheNewChild() {
        Child first = new Child(1);
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(first, 1);
        assertThat(recorder.adopted).containsExactly(first);
        assertThat(supervisor.acceptsCalls()).isTrue();

        assertThat(supervisor.childFailed(first, crash())).isTrue();

        assertThat(recorder.transitions).containsExactly(t(HEALTHY, FAILED, 2), t(FAILED, RESTARTING, 2));
        assertThat(recorder.failures).extracting(f -> f.exitCode()).containsExactly(OptionalInt.of(1));
        assertThat(stopped).containsExactly(first);
        assertThat(supervisor.state()).isEqualTo(RESTARTING);
        assertThat(supervisor.acceptsCalls()).isFalse();
        assertThat(supervisor.currentChild()).isEmpty();
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofMillis(100));

        scheduler.advance(Duration.ofMillis(99));
        assertThat(restartAttempts).isEmpty();
        scheduler.advance(Duration.ofMillis(1));

        assertThat(restartAttempts).containsExactly(3);
        assertThat(recorder.transitions).endsWith(t(RESTARTING, HEALTHY, 3));
        assertThat(supervisor.state()).isEqualTo(HEALTHY);
        assertThat(supervisor.attempt()).isEqualTo(3);
        assertThat(supervisor.restarts()).isEqualTo(1);
        assertThat(supervisor.acceptsCalls()).isTrue();
        Child second = supervisor.currentChild().orElseThrow();
        assertThat(second.attempt).isEqualTo(3);
        assertThat(recorder.adopted).containsExactly(first, second);
        assertThat(supervisor.lastFailure()).contains(crash());
    }

    @Test
    void eachTransitionCarriesTheTimeOfTheInjectedClock() {
        long start = clock.millis();
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(new Child(1), 1);
        clock.advance(Duration.ofMillis(40));
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        scheduler.advance(Duration.ofMillis(100));

        assertThat(recorder.transitions).containsExactly(t(HEALTHY, FAILED, 2), t(FAILED, RESTARTING, 2),
                t(RESTARTING, HEALTHY, 3));
        assertThat(recorder.times).containsExactly(start + 40, start + 40, start + 140);
    }

    @Test
    void aFailedRestartAttemptAppliesThePolicyAgainWithALongerBackoff() {
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(new Child(1), 1);
        restartOutcomes.add(false);
        restartOutcomes.add(true);

        supervisor.childFailed(new Child(1), crash()); // not the current incarnation: ignored
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        scheduler.advance(Duration.ofMillis(100));
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofMillis(200));
        scheduler.advance(Duration.ofMillis(200));

        assertThat(recorder.transitions).containsExactly(t(HEALTHY, FAILED, 2), t(FAILED, RESTARTING, 2),
                t(RESTARTING, FAILED, 3), t(FAILED, RESTARTING, 3), t(RESTARTING, HEALTHY, 4));
        assertThat(restartAttempts).containsExactly(3, 4);
        assertThat(recorder.failures).extracting(ChildFailure::reason)
                .containsExactly("the process exited with code 1 (stderr: boom)", "restart attempt 3 failed");
        assertThat(supervisor.restarts()).isEqualTo(2);
    }

    @Test
    void backoffGrowsExponentiallyUpToTheCap() {
        ModuleSupervisor<Child> supervisor = builder(options(10)).adopt(new Child(1), 1);
        for (int i = 0; i < 6; i++) {
            restartOutcomes.add(false);
        }

        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        scheduler.advance(Duration.ofSeconds(10));

        assertThat(scheduler.requestedDelays()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200),
                Duration.ofMillis(400), Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofSeconds(1));
        assertThat(supervisor.state()).isEqualTo(HEALTHY);
        assertThat(supervisor.attempt()).isEqualTo(2 + 7);
    }

    @Test
    void jitterFromTheInjectedSourceStaysWithinItsFraction() {
        double[] randoms = {0.0, 0.999};
        int[] next = {0};
        ModuleSupervisor<Child> supervisor = builder(options(5))
                .jitterSource(() -> randoms[next[0]++ % randoms.length])
                .adopt(new Child(1), 1);
        restartOutcomes.add(false);

        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        scheduler.advance(Duration.ofSeconds(1));

        assertThat(scheduler.requestedDelays().get(0)).isEqualTo(Duration.ofMillis(80));
        assertThat(scheduler.requestedDelays().get(1))
                .isGreaterThan(Duration.ofMillis(239)).isLessThanOrEqualTo(Duration.ofMillis(240));
    }

    @Test
    void exceedingTheRestartIntensityStopsTheModule() {
        ModuleSupervisor<Child> supervisor = builder(options(2)).adopt(new Child(1), 1);

        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        scheduler.advance(Duration.ofMillis(100));
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        scheduler.advance(Duration.ofMillis(200));
        Child third = supervisor.currentChild().orElseThrow();
        supervisor.childFailed(third, ChildFailure.exited(137, "killed"));

        assertThat(recorder.transitions).containsExactly(
                t(HEALTHY, FAILED, 2), t(FAILED, RESTARTING, 2), t(RESTARTING, HEALTHY, 3),
                t(HEALTHY, FAILED, 4), t(FAILED, RESTARTING, 4), t(RESTARTING, HEALTHY, 5),
                t(HEALTHY, FAILED, 6), t(FAILED, STOPPED, 6));
        assertThat(supervisor.state()).isEqualTo(STOPPED);
        assertThat(supervisor.acceptsCalls()).isFalse();
        assertThat(supervisor.currentChild()).isEmpty();
        assertThat(scheduler.pendingCount()).isZero();
        assertThat(recorder.stops).extracting(f -> f.exitCode()).containsExactly(OptionalInt.of(137));
        assertThat(stopped).contains(third);
        assertThat(supervisor.restarts()).isEqualTo(2);
    }

    @Test
    void theSlidingWindowAllowsRestartsAgainOnceOldRestartsLeaveIt() {
        ModuleSupervisor<Child> supervisor = builder(options(2)).adopt(new Child(1), 1);

        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash()); // restart 1 at t=0
        scheduler.advance(Duration.ofMillis(100));
        scheduler.advance(Duration.ofSeconds(30));
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash()); // restart 2 at t=30.1 s
        scheduler.advance(Duration.ofMillis(200));
        assertThat(supervisor.state()).isEqualTo(HEALTHY);

        scheduler.advance(Duration.ofSeconds(30)); // t = 60.3 s: restart 1 has left the window
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());

        assertThat(supervisor.state()).isEqualTo(RESTARTING);
        // one restart left in the window: the exponent follows it
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofMillis(200));
        scheduler.advance(Duration.ofMillis(200));
        assertThat(supervisor.state()).isEqualTo(HEALTHY);
        assertThat(supervisor.restarts()).isEqualTo(3);
    }

    @Test
    void staleIncarnationFailuresAreIgnored() {
        Child first = new Child(1);
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(first, 1);
        supervisor.childFailed(first, crash());
        scheduler.advance(Duration.ofMillis(100));
        int recorded = recorder.transitions.size();

        assertThat(supervisor.childFailed(first, crash())).isFalse();
        assertThat(supervisor.childFailed(new Child(3), crash())).isFalse();

        assertThat(recorder.transitions).hasSize(recorded);
        assertThat(recorder.failures).hasSize(1);
        assertThat(supervisor.state()).isEqualTo(HEALTHY);
    }

    @Test
    void failuresReportedWhileRestartingAreIgnored() {
        Child first = new Child(1);
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(first, 1);
        supervisor.childFailed(first, crash());

        assertThat(supervisor.acceptsCalls()).isFalse();
        assertThat(supervisor.childFailed(first, crash())).isFalse();
        assertThat(recorder.transitions).hasSize(2);
    }

    @Test
    void aModuleThatIsNotRestartableStaysFailedUntilRestartedByHand() {
        ModuleSupervisor<Child> supervisor = builder(options(5)).restartable(false).adopt(new Child(1), 1);

        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());

        assertThat(recorder.transitions).containsExactly(t(HEALTHY, FAILED, 2));
        assertThat(scheduler.pendingCount()).isZero();
        assertThat(supervisor.state()).isEqualTo(FAILED);
        assertThat(supervisor.acceptsCalls()).isFalse();
        assertThat(recorder.failures).hasSize(1);

        assertThat(supervisor.restartNow()).isEqualTo(HEALTHY);
        assertThat(recorder.transitions).endsWith(t(FAILED, RESTARTING, 2), t(RESTARTING, HEALTHY, 3));
    }

    @Test
    void manualRestartFromStoppedResetsTheIntensityWindow() {
        ModuleSupervisor<Child> supervisor = builder(options(1)).adopt(new Child(1), 1);
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        scheduler.advance(Duration.ofMillis(100));
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        assertThat(supervisor.state()).isEqualTo(STOPPED);
        int attempt = supervisor.attempt();

        assertThat(supervisor.restartNow()).isEqualTo(HEALTHY);

        assertThat(recorder.transitions).endsWith(t(HEALTHY, FAILED, attempt), t(FAILED, STOPPED, attempt),
                t(STOPPED, RESTARTING, attempt), t(RESTARTING, HEALTHY, attempt + 1));
        assertThat(supervisor.acceptsCalls()).isTrue();
        // the window was reset: the next failure is restarted again, with the initial backoff
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        assertThat(supervisor.state()).isEqualTo(RESTARTING);
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void manualRestartFromHealthyStopsTheOldChildWithoutCountingAFailure() {
        Child first = new Child(1);
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(first, 1);

        assertThat(supervisor.restartNow()).isEqualTo(HEALTHY);

        assertThat(recorder.transitions).containsExactly(t(HEALTHY, RESTARTING, 1), t(RESTARTING, HEALTHY, 2));
        assertThat(stopped).containsExactly(first);
        assertThat(supervisor.childFailed(first, ChildFailure.exited(143, ""))).isFalse();
        assertThat(recorder.failures).isEmpty();
        assertThat(supervisor.restarts()).isEqualTo(1);
    }

    @Test
    void aFailedManualRestartFollowsTheRestartRule() {
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(new Child(1), 1);
        restartOutcomes.add(false);

        assertThat(supervisor.restartNow()).isEqualTo(RESTARTING);

        assertThat(recorder.transitions).containsExactly(t(HEALTHY, RESTARTING, 1), t(RESTARTING, FAILED, 2),
                t(FAILED, RESTARTING, 2));
        scheduler.advance(Duration.ofMillis(100));
        assertThat(supervisor.state()).isEqualTo(HEALTHY);
        assertThat(supervisor.attempt()).isEqualTo(3);
    }

    @Test
    void manualRestartIsRefusedWhileRestartingOrAfterClose() {
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(new Child(1), 1);
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());

        assertThatThrownBy(supervisor::restartNow).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'search'").hasMessageContaining("Restarting");

        supervisor.close();
        assertThatThrownBy(supervisor::restartNow).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void aModuleStoppedAtStartupCanBeRestartedByHand() {
        StartupOutcome<Child> outcome = StartupProcedure.run(ID, StartupPolicy.of(RestartPolicy.NEVER), n -> {
            throw new ProcessBoundaryException(ID, new ProcessBoundaryError.Exited(2, "usage"));
        }, stopped::add, t -> { });
        ModuleSupervisor<Child> supervisor = builder(options(5)).start(outcome);

        assertThat(supervisor.state()).isEqualTo(STOPPED);
        assertThat(supervisor.acceptsCalls()).isFalse();
        assertThat(supervisor.lastFailure()).get().extracting(ChildFailure::stderrTail).isEqualTo("usage");

        assertThat(supervisor.restartNow()).isEqualTo(HEALTHY);
        assertThat(recorder.transitions).containsExactly(t(STOPPED, RESTARTING, 1), t(RESTARTING, HEALTHY, 2));
    }

    @Test
    void startAdoptsTheFinalHealthyChildOfTheStartup() {
        StartupOutcome<Child> outcome = StartupProcedure.run(ID, StartupPolicy.of(RestartPolicy.ON_FAILURE),
                n -> new Child(n), stopped::add, t -> { });

        ModuleSupervisor<Child> supervisor = builder(options(5)).start(outcome);

        assertThat(supervisor.currentChild()).containsSame(outcome.child());
        assertThat(supervisor.attempt()).isEqualTo(1);
        assertThat(recorder.adopted).containsExactly(outcome.child());
        assertThatThrownBy(() -> builder(options(5)).start(new StartupOutcome<>("other", HEALTHY, new Child(1), 1,
                null, false, List.of()))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void closeCancelsAPendingRestartAndStopsTheChildWithoutAFailure() {
        Child first = new Child(1);
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(first, 1);
        supervisor.childFailed(first, crash());
        assertThat(scheduler.pendingCount()).isEqualTo(1);

        supervisor.close();

        assertThat(scheduler.pendingCount()).isZero();
        scheduler.advance(Duration.ofSeconds(5));
        assertThat(restartAttempts).isEmpty();
        assertThat(recorder.transitions).hasSize(2);
        assertThat(supervisor.acceptsCalls()).isFalse();
        assertThat(supervisor.isClosed()).isTrue();
    }

    @Test
    void anExitCausedByCloseIsNotAFailure() {
        Child first = new Child(1);
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(first, 1);

        supervisor.close();
        supervisor.close();

        assertThat(stopped).containsExactly(first);
        assertThat(supervisor.childFailed(first, ChildFailure.exited(143, ""))).isFalse();
        assertThat(recorder.transitions).isEmpty();
        assertThat(recorder.failures).isEmpty();
        assertThat(supervisor.state()).isEqualTo(HEALTHY);
        assertThat(supervisor.acceptsCalls()).isFalse();
        assertThat(supervisor.currentChild()).isEmpty();
    }

    @Test
    void aChildStartedByARestartThatEndsAfterCloseIsStopped() {
        AtomicReference<ModuleSupervisor<Child>> self = new AtomicReference<>();
        List<Child> started = new ArrayList<>();
        ModuleSupervisor<Child> supervisor = ModuleSupervisor.<Child>builder(ID, n -> {
            self.get().close(); // the runtime shuts down while the attempt runs
            Child child = new Child(n);
            started.add(child);
            return child;
        }, stopped::add).clock(clock).scheduler(scheduler).attemptExecutor(Runnable::run).jitterSource(() -> 0.5).listener(recorder)
                .adopt(new Child(1), 1);
        self.set(supervisor);
        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());

        scheduler.advance(Duration.ofSeconds(1));

        assertThat(started).hasSize(1);
        assertThat(stopped).endsWith(started.get(0));
        assertThat(supervisor.currentChild()).isEmpty();
        assertThat(recorder.transitions).containsExactly(t(HEALTHY, FAILED, 2), t(FAILED, RESTARTING, 2));
    }

    @Test
    void aThrowingListenerNeverHurtsTheSupervisor() {
        SupervisionListener<Child> throwing = new SupervisionListener<>() {
            @Override
            public void onTransition(ModuleHealthTransition transition) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onAdopted(Child child, int attempt) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onFailure(String moduleId, ChildFailure failure) {
                throw new IllegalStateException("listener bug");
            }
        };
        ModuleSupervisor<Child> supervisor = ModuleSupervisor.<Child>builder(ID, this::restart, stopped::add)
                .options(options(5)).clock(clock).scheduler(scheduler).attemptExecutor(Runnable::run).jitterSource(() -> 0.5)
                .listener(throwing)
                .listener(recorder)
                .adopt(new Child(1), 1);

        assertThat(supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash())).isTrue();
        scheduler.advance(Duration.ofMillis(100));

        assertThat(supervisor.state()).isEqualTo(HEALTHY);
        assertThat(recorder.transitions).containsExactly(t(HEALTHY, FAILED, 2), t(FAILED, RESTARTING, 2),
                t(RESTARTING, HEALTHY, 3));
        assertThat(recorder.adopted).hasSize(2);
    }

    @Test
    void aListenerReportingAnAlreadyDeadChildOnAdoptionIsHandledInOrder() {
        AtomicReference<ModuleSupervisor<Child>> self = new AtomicReference<>();
        List<ModuleHealthTransition> seen = new ArrayList<>();
        SupervisionListener<Child> watcher = new SupervisionListener<>() {
            @Override
            public void onTransition(ModuleHealthTransition transition) {
                seen.add(transition);
            }

            @Override
            public void onAdopted(Child child, int attempt) {
                if (attempt == 3) {
                    self.get().childFailed(child, ChildFailure.exited(1, "died at once"));
                }
            }
        };
        ModuleSupervisor<Child> supervisor = ModuleSupervisor.<Child>builder(ID, this::restart, stopped::add)
                .options(options(5)).clock(clock).scheduler(scheduler).attemptExecutor(Runnable::run).jitterSource(() -> 0.5)
                .listener(watcher).adopt(new Child(1), 1);
        self.set(supervisor);

        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());
        scheduler.advance(Duration.ofMillis(100));

        assertThat(seen).map(ModuleSupervisorTest::untimed).containsExactly(t(HEALTHY, FAILED, 2),
                t(FAILED, RESTARTING, 2), t(RESTARTING, HEALTHY, 3), t(HEALTHY, FAILED, 4), t(FAILED, RESTARTING, 4));
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    @Timeout(30)
    void concurrentReportsOfOneFailureCountOnce() throws Exception {
        int threads = 8;
        for (int round = 0; round < 50; round++) {
            Recorder roundRecorder = new Recorder();
            ModuleSupervisor<Child> supervisor = ModuleSupervisor.<Child>builder(ID, this::restart, stopped::add)
                    .options(options(5)).clock(clock).scheduler(scheduler).attemptExecutor(Runnable::run).jitterSource(() -> 0.5)
                    .listener(roundRecorder).adopt(new Child(1), 1);
            Child child = supervisor.currentChild().orElseThrow();
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    results.add(pool.submit(() -> {
                        go.await();
                        return supervisor.childFailed(child, crash());
                    }));
                }
                go.countDown();
                int taken = 0;
                for (Future<Boolean> result : results) {
                    if (result.get(10, TimeUnit.SECONDS)) {
                        taken++;
                    }
                }
                assertThat(taken).isEqualTo(1);
                assertThat(roundRecorder.transitions).containsExactly(t(HEALTHY, FAILED, 2), t(FAILED, RESTARTING, 2));
                assertThat(roundRecorder.failures).hasSize(1);
            } finally {
                pool.shutdownNow();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
                supervisor.close();
            }
        }
    }

    @Test
    void reportCarriesStatePidRestartsLastErrorAndStderrTail() {
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(new Child(1), 1);

        ModuleSupervisorReport healthy = supervisor.report(c -> OptionalLong.of(1000L + c.attempt), c -> "tail " + c);
        assertThat(healthy).isEqualTo(new ModuleSupervisorReport(ID, HEALTHY, 1, OptionalLong.of(1001), 0, null,
                "tail child#1"));

        supervisor.childFailed(supervisor.currentChild().orElseThrow(), ChildFailure.exited(4, "bad input"));
        ModuleSupervisorReport restarting = supervisor.report(c -> OptionalLong.of(1000L + c.attempt), c -> "tail");
        assertThat(restarting).isEqualTo(new ModuleSupervisorReport(ID, RESTARTING, 2, OptionalLong.empty(), 1,
                "the process exited with code 4 (stderr: bad input)", "bad input"));
    }

    @Test
    void optionsAreValidatedAndDefaultsAreDocumented() {
        SupervisionOptions defaults = SupervisionOptions.defaults();
        assertThat(defaults).isEqualTo(new SupervisionOptions(Duration.ofMillis(500), 2.0, Duration.ofSeconds(30),
                0.2, 5, Duration.ofSeconds(60)));
        assertThat(defaults.toBuilder().build()).isEqualTo(defaults);
        assertThatThrownBy(() -> SupervisionOptions.builder().multiplier(0.5).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiplier");
        assertThatThrownBy(() -> SupervisionOptions.builder().jitter(1.5).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jitter");
        assertThatThrownBy(() -> SupervisionOptions.builder().maxRestarts(-1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxRestarts");
        assertThatThrownBy(() -> SupervisionOptions.builder().restartWindow(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("restartWindow");
        assertThatThrownBy(() -> SupervisionOptions.builder().initialBackoff(Duration.ofMinutes(1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBackoff");
        assertThatThrownBy(() -> SupervisionOptions.builder().initialBackoff(Duration.ofMillis(-1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initialBackoff");
    }

    @Test
    void zeroMaxRestartsStopsOnTheFirstFailure() {
        ModuleSupervisor<Child> supervisor = builder(options(0)).adopt(new Child(1), 1);

        supervisor.childFailed(supervisor.currentChild().orElseThrow(), crash());

        assertThat(recorder.transitions).containsExactly(t(HEALTHY, FAILED, 2), t(FAILED, STOPPED, 2));
        assertThat(recorder.stops).hasSize(1);
    }

    @Test
    void publicMethodsRejectNulls() {
        ModuleSupervisor<Child> supervisor = builder(options(5)).adopt(new Child(1), 1);
        assertThatThrownBy(() -> supervisor.childFailed(null, crash())).isInstanceOf(NullPointerException.class)
                .hasMessage("child");
        assertThatThrownBy(() -> supervisor.childFailed(new Child(1), null)).isInstanceOf(NullPointerException.class)
                .hasMessage("failure");
        assertThatThrownBy(() -> ModuleSupervisor.<Child>builder(ID, null, c -> { }))
                .isInstanceOf(NullPointerException.class).hasMessage("restartAttempt");
    }
}
