package org.metaruntime.eventline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.StopReport;
import org.metaruntime.supervisor.StopStage;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StartAttemptTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final EventLineRunner runner = EventLineRunner.create();

    @RegisterExtension
    final Fixtures fixtures = new Fixtures();

    @Test
    void keepsTheChildAliveUntilStopped() throws Exception {
        EventLineChild child = runner.startAttempt(fixtures.module("stay").build(), TIMEOUT);
        try {
            assertThat(child.event().eventId()).isEqualTo(fixtures.eventId());
            assertThat(child.moduleId()).isEqualTo(Fixtures.MODULE);
            assertThat(fixtures.pids("child")).containsExactly(child.pid());
            assertThat(child.isAlive()).isTrue();
            assertThat(child.exitFuture()).isNotDone();
        } finally {
            StopReport report = child.stop(StopLadder.defaults());
            assertThat(report.stage()).isNotEqualTo(StopStage.ALREADY_EXITED);
            assertThat(report.survivors()).isZero();
        }
        ProcessExit exit = child.exitFuture().get(20, TimeUnit.SECONDS);
        assertThat(exit.requestedByRuntime()).isTrue();
        assertThat(EventLineChild.isFailure(exit)).isFalse();
        assertThat(child.isAlive()).isFalse();
    }

    @Test
    void stoppingAKeptChildSkipsTheStdinGraceItsClosedStdinMakesPointless() {
        // The child ignores the end of its stdin; with a stdin grace of a day the stop would outlive the test.
        EventLineChild child = runner.startAttempt(fixtures.module("stay").build(), TIMEOUT);

        StopReport report = child.stop(new StopLadder(Duration.ofDays(1), Duration.ofSeconds(20), Duration.ofSeconds(5)));

        assertThat(report.stage()).isEqualTo(StopStage.EXITED_AFTER_SIGTERM);
        assertThat(report.survivors()).isZero();
    }

    @Test
    void atMostTwoThreadsPerLiveChild() {
        List<EventLineChild> children = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                children.add(runner.startAttempt(fixtures.module("stay").build(), TIMEOUT));
            }
            assertThat(children).allMatch(EventLineChild::isAlive);
            long moduleThreads = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.isAlive() && t.getName().startsWith("meta-" + Fixtures.MODULE + "-"))
                    .count();
            assertThat(moduleThreads).isLessThanOrEqualTo(2L * children.size());
        } finally {
            children.forEach(child -> child.stop(EventLineRunner.KILL_LADDER));
        }
        fixtures.assertStarted(5, 0);
    }

    @Test
    void exitZeroAfterTheLineIsCompletionNotFailure() throws Exception {
        try (EventLineChild child = runner.startAttempt(fixtures.module("ok").build(), TIMEOUT)) {
            ProcessExit exit = child.exitFuture().get(20, TimeUnit.SECONDS);

            assertThat(exit.exitCode()).isZero();
            assertThat(exit.requestedByRuntime()).isFalse();
            assertThat(EventLineChild.isFailure(exit)).isFalse();
        }
    }

    @Test
    void nonZeroExitAfterTheLineIsAFailure() throws Exception {
        try (EventLineChild child = runner.startAttempt(fixtures.module("crash_later").build(), TIMEOUT)) {
            ProcessExit exit = child.exitFuture().get(20, TimeUnit.SECONDS);

            assertThat(exit.exitCode()).isEqualTo(7);
            assertThat(exit.requestedByRuntime()).isFalse();
            assertThat(EventLineChild.isFailure(exit)).isTrue();
        }
    }

    @Test
    void sigtermIgnoringChildIsKilledWithItsGrandchild() {
        EventLineChild child = runner.startAttempt(fixtures.moduleWithGrandchild("ignore_term").build(), TIMEOUT);

        StopReport report = child.stop(new StopLadder(Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(5)));

        assertThat(report.stage()).isEqualTo(StopStage.KILLED);
        assertThat(report.survivors()).isZero();
        fixtures.assertStarted(1, 1);
    }

    @Test
    void stderrFloodIsDrainedIntoABoundedTail() {
        int tailBytes = 4096;
        try (EventLineChild child = runner.startAttempt(
                fixtures.module("stderr_flood").stderrTailBytes(tailBytes).build(), TIMEOUT)) {
            assertThat(child.event().eventId()).isEqualTo(fixtures.eventId());
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> child.stderrTail().endsWith("end of the flood\n"));
            assertThat(child.stderrTail().length()).isLessThanOrEqualTo(tailBytes);
        }
    }

    @Test
    void failedAttemptLeavesNoProcess() {
        EventLineException timeout = catchThrowableOfType(EventLineException.class,
                () -> runner.startAttempt(fixtures.moduleWithGrandchild("slow").build(), Duration.ofSeconds(5)));
        EventLineException invalid = catchThrowableOfType(EventLineException.class,
                () -> runner.startAttempt(fixtures.module("garbage").build(), TIMEOUT));

        assertThat(timeout.error()).isEqualTo(new EventLineError.Process(new ProcessBoundaryError.Timeout(5000)));
        assertThat(invalid.error()).isEqualTo(new EventLineError.Normalize(new NormalizationError.InvalidJson()));
        fixtures.assertStarted(2, 1);
    }

    @Test
    void emptyOutputAttempt() {
        EventLineException e = catchThrowableOfType(EventLineException.class,
                () -> runner.startAttempt(fixtures.module("empty").build(), TIMEOUT));

        assertThat(e.error()).isEqualTo(new EventLineError.Process(new ProcessBoundaryError.EmptyOutput()));
        assertThat(e.exitCode()).hasValue(3);
    }
}
