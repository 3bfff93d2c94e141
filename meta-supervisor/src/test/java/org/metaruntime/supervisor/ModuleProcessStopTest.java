package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.testing.ProcessLeaks;

/** The stop ladder with real children. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModuleProcessStopTest {

    private static final Duration LONG = Duration.ofSeconds(10);

    @RegisterExtension
    final Fixtures fixtures = new Fixtures();
    final RecordingListener listener = new RecordingListener();

    private ModuleProcess startReady(String moduleId, String fixture) {
        ModuleProcess process = fixtures.start(fixtures.spec(moduleId, fixture).build(), listener);
        await().until(() -> listener.lines.contains("ready"));
        return process;
    }

    @Test
    @Timeout(60)
    void aChildThatExitsOnStdinEndStopsAtTheFirstRung() {
        ModuleProcess process = startReady("polite", "echo");
        StopReport report = process.stop(new StopLadder(LONG, LONG, LONG));
        assertThat(report).isEqualTo(new StopReport("polite", process.pid(),
                StopStage.EXITED_AFTER_STDIN_CLOSE, OptionalInt.of(0), 0));
        ProcessExit exit = process.exitFuture().join();
        assertThat(exit.requestedByRuntime()).isTrue();
        assertThat(exit.exitCode()).isZero();
    }

    @Test
    @Timeout(60)
    void aChildThatIgnoresStdinGetsSigterm() {
        ModuleProcess process = fixtures.start(fixtures.spec("sleepy", "sleep_long").build(), listener);
        fixtures.awaitPids(1);
        StopReport report = process.stop(new StopLadder(Duration.ofMillis(100), LONG, LONG));
        assertThat(report.stage()).isEqualTo(StopStage.EXITED_AFTER_SIGTERM);
        assertThat(report.exitCode()).hasValue(143);
        assertThat(report.survivors()).isZero();
        assertThat(process.exitFuture().join().requestedByRuntime()).isTrue();
    }

    @Test
    @Timeout(60)
    void aChildThatIgnoresSigtermIsKilled() {
        ModuleProcess process = startReady("stubborn", "ignore_term");
        StopReport report = process.stop(new StopLadder(Duration.ofMillis(100), Duration.ofMillis(300), LONG));
        assertThat(report.stage()).isEqualTo(StopStage.KILLED);
        assertThat(report.exitCode()).hasValue(137);
        assertThat(report.survivors()).isZero();
        assertThat(process.isAlive()).isFalse();
        assertThat(process.exitFuture().join().exitCode()).isEqualTo(137);
    }

    @Test
    @Timeout(60)
    void immediateKillsAtOnce() {
        ModuleProcess process = startReady("now", "ignore_term");
        ProcessHandle handle = ProcessHandle.of(process.pid()).orElseThrow();
        StopReport report = process.stop(StopLadder.immediate());
        assertThat(report.stage()).isEqualTo(StopStage.KILLED);
        ProcessLeaks.assertDead(handle);
        assertThat(process.exitFuture().join().exitCode()).isEqualTo(137);
    }

    @Test
    @Timeout(60)
    void stoppingTwiceReturnsTheFirstReport() {
        ModuleProcess process = startReady("twice", "echo");
        StopReport first = process.stop(new StopLadder(LONG, LONG, LONG));
        StopReport second = process.stop(StopLadder.immediate());
        assertThat(second).isEqualTo(first);
        process.close();
        assertThat(process.stopAsync(StopLadder.defaults()).join()).isEqualTo(first);
    }

    @Test
    @Timeout(60)
    void stoppingFromSeveralThreadsRunsOneLadder() {
        ModuleProcess process = startReady("many", "ignore_term");
        StopLadder ladder = new StopLadder(Duration.ofMillis(50), Duration.ofMillis(200), LONG);
        List<CompletableFuture<StopReport>> reports = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            CompletableFuture<StopReport> report = new CompletableFuture<>();
            reports.add(report);
            Thread thread = new Thread(() -> report.complete(process.stop(ladder)), "stopper-" + i);
            threads.add(thread);
            thread.start();
        }
        StopReport first = reports.get(0).join();
        assertThat(first.stage()).isEqualTo(StopStage.KILLED);
        for (CompletableFuture<StopReport> report : reports) {
            assertThat(report.join()).isEqualTo(first);
        }
    }

    @Test
    @Timeout(60)
    void stoppingAnExitedChildReportsAlreadyExited() {
        ModuleProcess process = fixtures.start(fixtures.spec("done", "silent_exit").build(), listener);
        ProcessExit exit = process.exitFuture().join();
        StopReport report = process.stop(StopLadder.defaults());
        assertThat(report).isEqualTo(new StopReport("done", process.pid(), StopStage.ALREADY_EXITED,
                OptionalInt.of(3), 0));
        assertThat(exit.requestedByRuntime()).isFalse();
    }

    @Test
    @Timeout(60)
    void stopAsyncDoesNotBlockAndCompletesWithTheReport() {
        ModuleProcess process = startReady("async", "echo");
        CompletableFuture<StopReport> report = process.stopAsync(new StopLadder(LONG, LONG, LONG));
        assertThat(report.join().stage()).isEqualTo(StopStage.EXITED_AFTER_STDIN_CLOSE);
        assertThat(listener.exit.join().requestedByRuntime()).isTrue();
    }
}
