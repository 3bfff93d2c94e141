package org.metaruntime.supervisor.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.metaruntime.supervisor.ModuleHealthState.FAILED;
import static org.metaruntime.supervisor.ModuleHealthState.HEALTHY;
import static org.metaruntime.supervisor.ModuleHealthState.RESTARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STOPPED;
import static org.metaruntime.supervisor.RestartPolicy.ALWAYS;
import static org.metaruntime.supervisor.RestartPolicy.NEVER;
import static org.metaruntime.supervisor.RestartPolicy.ON_FAILURE;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.internal.manual.ManualClock;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;

class StartupProcedureTest {

    private static final String ID = "billing";

    /** A started child of the scripted module. */
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

    /** A module whose attempts succeed or fail as scripted. */
    static final class Script implements StartAttempt<Child> {
        private final boolean[] outcomes;
        final List<Integer> attempts = new ArrayList<>();
        final List<Child> stopped = new ArrayList<>();

        Script(boolean... outcomes) {
            this.outcomes = outcomes;
        }

        @Override
        public Child start(int attempt) {
            attempts.add(attempt);
            if (attempts.size() > outcomes.length) {
                throw new AssertionError("unexpected attempt " + attempt);
            }
            if (!outcomes[attempts.size() - 1]) {
                throw new IllegalStateException("attempt " + attempt + " failed");
            }
            return new Child(attempt);
        }
    }

    /** The transitions without their time, to compare with {@link #t}; the clock's own test checks the times. */
    private final List<ModuleHealthTransition> log = new ArrayList<>() {
        @Override
        public boolean add(ModuleHealthTransition transition) {
            return super.add(untimed(transition));
        }
    };
    private final List<Duration> slept = new ArrayList<>();
    /** Records each backoff and lets it pass at once. */
    private final Scheduler recording = passing(slept::add);

    /** A scheduler that hands each delay to {@code delays} and runs the task at once, on the waiting thread. */
    private static Scheduler passing(Consumer<Duration> delays) {
        return (task, delay) -> {
            delays.accept(delay);
            task.run();
            return () -> false;
        };
    }

    @AfterEach
    void clearInterruptFlag() {
        Thread.interrupted();
    }

    private StartupOutcome<Child> run(StartupPolicy policy, Script script) {
        StartupOutcome<Child> outcome =
                StartupProcedure.run(ID, policy, script, script.stopped::add, log::add, recording);
        assertThat(outcome.transitions()).map(StartupProcedureTest::untimed).isEqualTo(log);
        assertThat(log).allSatisfy(t -> assertThat(HealthTransitions.isLegal(t.from(), t.to())).isTrue());
        return outcome;
    }

    private static StartupPolicy policy(RestartPolicy policy, int budget) {
        return new StartupPolicy(policy, budget, budget, Duration.ZERO);
    }

    private static ModuleHealthTransition t(ModuleHealthState from, ModuleHealthState to, int attempt) {
        return new ModuleHealthTransition(ID, from, to, attempt);
    }

    private static ModuleHealthTransition untimed(ModuleHealthTransition t) {
        return new ModuleHealthTransition(t.moduleId(), t.from(), t.to(), t.attempt());
    }

    @Test
    void eachTransitionCarriesTheTimeOfTheInjectedClock() {
        ManualClock clock = new ManualClock(java.time.Instant.ofEpochMilli(5_000));
        List<ModuleHealthTransition> timed = new ArrayList<>();
        Script script = new Script(false, true);
        StartupProcedure.run(ID, new StartupPolicy(ON_FAILURE, 1, 1, Duration.ofMillis(250)), script,
                script.stopped::add, timed::add, passing(clock::advance), clock);

        assertThat(timed).containsExactly(new ModuleHealthTransition(ID, null, STARTING, 0, 5_000),
                new ModuleHealthTransition(ID, STARTING, FAILED, 1, 5_000),
                new ModuleHealthTransition(ID, FAILED, RESTARTING, 1, 5_000),
                new ModuleHealthTransition(ID, RESTARTING, HEALTHY, 2, 5_250));
    }

    @Test
    void neverSucceedsOnce() {
        Script script = new Script(true);
        StartupOutcome<Child> outcome = run(StartupPolicy.of(NEVER), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, HEALTHY, 1));
        assertThat(outcome.loaded()).isTrue();
        assertThat(outcome.child().attempt).isEqualTo(1);
        assertThat(outcome.attempts()).isEqualTo(1);
        assertThat(outcome.lastFailure()).isNull();
        assertThat(script.stopped).isEmpty();
    }

    @Test
    void neverFailsOnceAndStops() {
        Script script = new Script(false);
        StartupOutcome<Child> outcome = run(StartupPolicy.of(NEVER), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, STOPPED, 1));
        assertThat(outcome.loaded()).isFalse();
        assertThat(outcome.state()).isEqualTo(STOPPED);
        assertThat(outcome.healthyChild()).isEmpty();
        assertThat(outcome.interrupted()).isFalse();
        assertThat(outcome.failure()).get().extracting(ChildFailure::reason).isEqualTo("attempt 1 failed");
        assertThat(script.attempts).containsExactly(1);
    }

    @Test
    void onFailureBudgetZeroDoesNotRetry() {
        Script script = new Script(false);
        StartupOutcome<Child> outcome = run(policy(ON_FAILURE, 0), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, STOPPED, 1));
        assertThat(outcome.attempts()).isEqualTo(1);
        assertThat(script.attempts).containsExactly(1);
    }

    @Test
    void onFailureSuccessFirstIsKeptWithoutRestart() {
        Script script = new Script(true);
        StartupOutcome<Child> outcome = run(policy(ON_FAILURE, 2), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, HEALTHY, 1));
        assertThat(outcome.child().attempt).isEqualTo(1);
    }

    @Test
    void onFailureBudgetOneRetriesOnce() {
        Script script = new Script(false, true);
        StartupOutcome<Child> outcome = run(policy(ON_FAILURE, 1), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, RESTARTING, 1),
                t(RESTARTING, HEALTHY, 2));
        assertThat(outcome.child().attempt).isEqualTo(2);
        assertThat(outcome.attempts()).isEqualTo(2);
        assertThat(outcome.lastFailure()).hasMessage("attempt 1 failed");
    }

    @Test
    void onFailureBudgetOneExhaustedAfterTwoSpawns() {
        Script script = new Script(false, false);
        StartupOutcome<Child> outcome = run(policy(ON_FAILURE, 1), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, RESTARTING, 1),
                t(RESTARTING, FAILED, 2), t(FAILED, STOPPED, 2));
        assertThat(script.attempts).containsExactly(1, 2);
        assertThat(outcome.lastFailure()).hasMessage("attempt 2 failed");
    }

    @Test
    void onFailureBudgetTwoFailsTwiceThenSucceedsAsInTheSpecExample() {
        Script script = new Script(false, false, true);
        StartupOutcome<Child> outcome = run(policy(ON_FAILURE, 2), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, RESTARTING, 1),
                t(RESTARTING, FAILED, 2), t(FAILED, RESTARTING, 2), t(RESTARTING, HEALTHY, 3));
        assertThat(outcome.loaded()).isTrue();
        assertThat(outcome.child().attempt).isEqualTo(3);
        assertThat(outcome.attempts()).isEqualTo(3);
    }

    @Test
    void onFailureBudgetTwoExhaustsToStoppedAfterThreeSpawns() {
        Script script = new Script(false, false, false);
        StartupOutcome<Child> outcome = run(policy(ON_FAILURE, 2), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, RESTARTING, 1),
                t(RESTARTING, FAILED, 2), t(FAILED, RESTARTING, 2), t(RESTARTING, FAILED, 3), t(FAILED, STOPPED, 3));
        assertThat(outcome.state()).isEqualTo(STOPPED);
        assertThat(script.attempts).containsExactly(1, 2, 3);
    }

    @Test
    void onFailureUsesItsOwnBudgetNotTheAlwaysBudget() {
        Script script = new Script(false, false);
        run(new StartupPolicy(ON_FAILURE, 0, 5, Duration.ZERO), script);

        assertThat(script.attempts).containsExactly(1);
        assertThat(log).endsWith(t(FAILED, STOPPED, 1));
    }

    @Test
    void alwaysBudgetZeroKeepsTheFirstSuccess() {
        Script script = new Script(true);
        StartupOutcome<Child> outcome = run(policy(ALWAYS, 0), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, HEALTHY, 1));
        assertThat(outcome.child().attempt).isEqualTo(1);
        assertThat(script.stopped).isEmpty();
    }

    @Test
    void alwaysBudgetZeroStopsOnTheFirstFailure() {
        Script script = new Script(false);
        run(policy(ALWAYS, 0), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, STOPPED, 1));
    }

    @Test
    void alwaysBudgetOneRestartsASuccessAndKeepsTheSecond() {
        Script script = new Script(true, true);
        StartupOutcome<Child> outcome = run(policy(ALWAYS, 1), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, HEALTHY, 1), t(HEALTHY, RESTARTING, 1),
                t(RESTARTING, HEALTHY, 2));
        assertThat(script.stopped).extracting(c -> c.attempt).containsExactly(1);
        assertThat(outcome.child().attempt).isEqualTo(2);
    }

    @Test
    void alwaysBudgetOneFailThenSuccess() {
        Script script = new Script(false, true);
        StartupOutcome<Child> outcome = run(policy(ALWAYS, 1), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, RESTARTING, 1),
                t(RESTARTING, HEALTHY, 2));
        assertThat(script.stopped).isEmpty();
        assertThat(outcome.child().attempt).isEqualTo(2);
    }

    @Test
    void alwaysBudgetOneSuccessThenFailureStops() {
        Script script = new Script(true, false);
        StartupOutcome<Child> outcome = run(policy(ALWAYS, 1), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, HEALTHY, 1), t(HEALTHY, RESTARTING, 1),
                t(RESTARTING, FAILED, 2), t(FAILED, STOPPED, 2));
        assertThat(script.stopped).extracting(c -> c.attempt).containsExactly(1);
        assertThat(outcome.loaded()).isFalse();
        assertThat(outcome.lastFailure()).hasMessage("attempt 2 failed");
    }

    @Test
    void alwaysBudgetTwoSuccessSuccessFail() {
        Script script = new Script(true, true, false);
        StartupOutcome<Child> outcome = run(policy(ALWAYS, 2), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, HEALTHY, 1), t(HEALTHY, RESTARTING, 1),
                t(RESTARTING, HEALTHY, 2), t(HEALTHY, RESTARTING, 2), t(RESTARTING, FAILED, 3), t(FAILED, STOPPED, 3));
        assertThat(script.stopped).extracting(c -> c.attempt).containsExactly(1, 2);
        assertThat(outcome.state()).isEqualTo(STOPPED);
        assertThat(outcome.attempts()).isEqualTo(3);
    }

    @Test
    void alwaysBudgetTwoThreeSuccessesKeepTheThird() {
        Script script = new Script(true, true, true);
        StartupOutcome<Child> outcome = run(policy(ALWAYS, 2), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, HEALTHY, 1), t(HEALTHY, RESTARTING, 1),
                t(RESTARTING, HEALTHY, 2), t(HEALTHY, RESTARTING, 2), t(RESTARTING, HEALTHY, 3));
        assertThat(script.stopped).extracting(c -> c.attempt).containsExactly(1, 2);
        assertThat(outcome.child().attempt).isEqualTo(3);
    }

    @Test
    void alwaysBudgetTwoFailSuccessSuccess() {
        Script script = new Script(false, true, true);
        StartupOutcome<Child> outcome = run(policy(ALWAYS, 2), script);

        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, RESTARTING, 1),
                t(RESTARTING, HEALTHY, 2), t(HEALTHY, RESTARTING, 2), t(RESTARTING, HEALTHY, 3));
        assertThat(script.stopped).extracting(c -> c.attempt).containsExactly(2);
        assertThat(outcome.child().attempt).isEqualTo(3);
    }

    @Test
    void alwaysUsesItsOwnBudgetNotTheOnFailureBudget() {
        Script script = new Script(true, true);
        run(new StartupPolicy(ALWAYS, 5, 0, Duration.ZERO), script);

        assertThat(script.attempts).containsExactly(1);
    }

    @Test
    void backoffIsSleptBetweenAttemptsWithTheConfiguredDuration() {
        Script script = new Script(false, false, true);
        run(new StartupPolicy(ON_FAILURE, 2, 1, Duration.ofMillis(250)), script);

        assertThat(slept).containsExactly(Duration.ofMillis(250), Duration.ofMillis(250));
    }

    @Test
    void backoffIsSleptAfterStoppingAnAlwaysRestartedChild() {
        List<String> order = new ArrayList<>();
        Script script = new Script(true, true);
        StartupProcedure.run(ID, new StartupPolicy(ALWAYS, 1, 1, Duration.ofSeconds(2)),
                n -> {
                    order.add("start " + n);
                    return script.start(n);
                },
                child -> order.add("stop " + child.attempt),
                log::add,
                passing(d -> order.add("sleep " + d)));

        assertThat(order).containsExactly("start 1", "stop 1", "sleep PT2S", "start 2");
    }

    @Test
    void zeroBackoffDoesNotSleep() {
        run(policy(ON_FAILURE, 2), new Script(false, false, true));

        assertThat(slept).isEmpty();
    }

    @Test
    void noSleepAfterTheLastAttempt() {
        run(new StartupPolicy(ON_FAILURE, 1, 1, Duration.ofMillis(10)), new Script(false, false));

        assertThat(slept).containsExactly(Duration.ofMillis(10));
    }

    @Test
    void stoppedOutcomeCarriesExitCodeAndStderrTailForTheWarning() {
        StartupOutcome<Child> outcome = StartupProcedure.run(ID, StartupPolicy.of(NEVER),
                n -> {
                    throw new ProcessBoundaryException(ID, new ProcessBoundaryError.Exited(3, "Traceback: boom"));
                },
                c -> { }, log::add, recording);

        ChildFailure failure = outcome.failure().orElseThrow();
        assertThat(failure.exitCode()).hasValue(3);
        assertThat(failure.stderrTail()).isEqualTo("Traceback: boom");
        assertThat(failure.reason()).contains("billing").contains("code 3");
        assertThat(failure.cause()).isInstanceOf(ProcessBoundaryException.class);
    }

    @Test
    void aNullChildIsAFailedAttempt() {
        StartupOutcome<Child> outcome = StartupProcedure.run(ID, StartupPolicy.of(NEVER), n -> null,
                c -> { }, log::add, recording);

        assertThat(outcome.state()).isEqualTo(STOPPED);
        assertThat(outcome.lastFailure()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void interruptedBackoffStopsCleanlyAndRestoresTheFlag() {
        List<Duration> cancelled = new ArrayList<>();
        Script script = new Script(false, true);
        StartupOutcome<Child> outcome = StartupProcedure.run(ID, new StartupPolicy(ON_FAILURE, 1, 1,
                Duration.ofSeconds(1)), script, script.stopped::add, log::add, (task, delay) -> {
                    Thread.currentThread().interrupt(); // interrupted while the backoff waits
                    return () -> cancelled.add(delay);
                });

        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(outcome.interrupted()).isTrue();
        assertThat(outcome.state()).isEqualTo(STOPPED);
        assertThat(outcome.lastFailure()).hasMessage("attempt 1 failed");
        assertThat(script.attempts).containsExactly(1);
        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, RESTARTING, 1),
                t(RESTARTING, STOPPED, 1));
        assertThat(cancelled).as("the backoff's task is cancelled").containsExactly(Duration.ofSeconds(1));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theBackoffWaitsForTheSchedulerToFireIt() throws Exception {
        ManualScheduler scheduler = new ManualScheduler();
        Script script = new Script(false, true);
        CompletableFuture<StartupOutcome<Child>> outcome = new CompletableFuture<>();
        Thread starting = new Thread(() -> outcome.complete(StartupProcedure.run(ID,
                new StartupPolicy(ON_FAILURE, 1, 1, Duration.ofMillis(250)), script, script.stopped::add, log::add,
                scheduler)), "startup-procedure-test");
        starting.start();

        await().atMost(Duration.ofSeconds(20)).until(() -> scheduler.pendingCount() == 1);
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofMillis(250));
        assertThat(outcome).isNotDone();
        assertThat(script.attempts).containsExactly(1);

        scheduler.advance(Duration.ofMillis(250));

        assertThat(outcome.get(20, TimeUnit.SECONDS).loaded()).isTrue();
        assertThat(script.attempts).containsExactly(1, 2);
        starting.join();
    }

    @Test
    void aSchedulerThatRefusesTheBackoffEndsTheStartupStopped() {
        Script script = new Script(false, true);
        StartupOutcome<Child> outcome = StartupProcedure.run(ID, new StartupPolicy(ON_FAILURE, 1, 1,
                Duration.ofSeconds(1)), script, script.stopped::add, log::add, (task, delay) -> {
                    throw new RejectedExecutionException("closed");
                });

        assertThat(outcome.interrupted()).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(outcome.state()).isEqualTo(STOPPED);
        assertThat(script.attempts).containsExactly(1);
        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, FAILED, 1), t(FAILED, RESTARTING, 1),
                t(RESTARTING, STOPPED, 1));
    }

    @Test
    void interruptedAttemptStopsTheChildAlreadyRestartedAndRestoresTheFlag() {
        List<Child> stopped = new ArrayList<>();
        StartupOutcome<Child> outcome = StartupProcedure.run(ID, policy(ALWAYS, 1), n -> {
            if (n == 2) {
                throw new InterruptedException();
            }
            return new Child(n);
        }, stopped::add, log::add, recording);

        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(outcome.interrupted()).isTrue();
        assertThat(outcome.healthyChild()).isEmpty();
        assertThat(stopped).extracting(c -> c.attempt).containsExactly(1);
        assertThat(log).endsWith(t(HEALTHY, RESTARTING, 1), t(RESTARTING, STOPPED, 2));
    }

    @Test
    void aChildStartedWhileInterruptedIsStoppedNotKept() {
        List<Child> stopped = new ArrayList<>();
        StartupOutcome<Child> outcome = StartupProcedure.run(ID, StartupPolicy.of(ON_FAILURE), n -> {
            Thread.currentThread().interrupt();
            return new Child(n);
        }, stopped::add, log::add, recording);

        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(outcome.interrupted()).isTrue();
        assertThat(stopped).extracting(c -> c.attempt).containsExactly(1);
        assertThat(log).containsExactly(t(null, STARTING, 0), t(STARTING, STOPPED, 1));
    }

    @Test
    void aThrowingSinkOrStopFunctionDoesNotBreakTheProcedure() {
        Script script = new Script(true, true);
        List<ModuleHealthTransition> seen = new ArrayList<>();
        StartupOutcome<Child> outcome = StartupProcedure.run(ID, policy(ALWAYS, 1), script,
                c -> {
                    throw new IllegalStateException("stop failed");
                },
                tr -> {
                    seen.add(tr);
                    throw new IllegalStateException("sink failed");
                }, recording);

        assertThat(outcome.loaded()).isTrue();
        assertThat(seen).hasSize(4).isEqualTo(outcome.transitions());
    }

    @Test
    void startupPolicyIsValidated() {
        assertThatThrownBy(() -> new StartupPolicy(ON_FAILURE, -1, 1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("onFailureRetryBudget");
        assertThatThrownBy(() -> new StartupPolicy(ON_FAILURE, 1, -1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alwaysRestartBudget");
        assertThatThrownBy(() -> new StartupPolicy(ON_FAILURE, 1, 1, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("restartBackoff");
        assertThatThrownBy(() -> new StartupPolicy(null, 1, 1, Duration.ZERO))
                .isInstanceOf(NullPointerException.class).hasMessage("policy");
        assertThat(StartupPolicy.of(ON_FAILURE))
                .isEqualTo(new StartupPolicy(ON_FAILURE, 1, 1, Duration.ZERO));
    }

    @Test
    void runRejectsNullArguments() {
        Script script = new Script(true);
        assertThatThrownBy(() -> StartupProcedure.run(null, StartupPolicy.of(NEVER), script, c -> { }, log::add))
                .isInstanceOf(NullPointerException.class).hasMessage("moduleId");
        assertThatThrownBy(() -> StartupProcedure.run(ID, StartupPolicy.of(NEVER), script, c -> { }, log::add,
                (Scheduler) null)).isInstanceOf(NullPointerException.class).hasMessage("scheduler");
    }
}
