package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.internal.ExitWatcher;
import org.metaruntime.supervisor.internal.ProcessLauncher;
import org.metaruntime.supervisor.internal.proc.ProcessTree;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ProcessLeaks;

/** The exit watching part alone, with real children whose pipes the test drains itself. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExitWatcherTest {

    @TempDir
    Path tmp;
    private Fixtures fixtures;
    private Process process;
    private final List<ProcessExit> exits = new CopyOnWriteArrayList<>();
    private final CompletableFuture<ProcessExit> reported = new CompletableFuture<>();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> fixtures.pidFile());

    @AfterEach
    void destroyWhatIsLeft() {
        if (process != null) {
            process.destroyForcibly();
        }
    }

    /** Launches the fixture and watches it; two threads drain its pipes and tell the watcher at end of file. */
    private ExitWatcher watch(String fixture, Duration drainTimeout) {
        fixtures = new Fixtures(tmp);
        ProcessLauncher.Launched launched = ProcessLauncher.launch(fixtures.spec("w", fixture).build());
        process = launched.process();
        ProcessTree tree = ProcessTree.of(process.toHandle(), launched.token(), launched.beforeSpawn());
        CompletableFuture<Void> stdoutDone = new CompletableFuture<>();
        CompletableFuture<Void> stderrDone = new CompletableFuture<>();
        ExitWatcher watcher = new ExitWatcher("w", process, tree, drainTimeout, stdoutDone, stderrDone,
                () -> "the tail", exit -> {
                    exits.add(exit);
                    reported.complete(exit);
                });
        drain(process.getInputStream(), stdoutDone, watcher);
        drain(process.getErrorStream(), stderrDone, watcher);
        watcher.start();
        return watcher;
    }

    private static void drain(InputStream in, CompletableFuture<Void> done, ExitWatcher watcher) {
        Thread thread = new Thread(() -> {
            try (in) {
                in.transferTo(OutputStreamSink.INSTANCE);
            } catch (IOException ignored) {
                // end of the pipe
            } finally {
                done.complete(null);
                watcher.pipeClosed();
            }
        }, "exit-watcher-test-drain");
        thread.setDaemon(true);
        thread.start();
    }

    @Test
    void reportsAnExitOnceWithItsCodeAfterThePipesClosed() {
        ExitWatcher watcher = watch("silent_exit", Duration.ofSeconds(5));

        ProcessExit exit = reported.join();

        assertThat(exit.exitCode()).isEqualTo(3);
        assertThat(exit.pid()).isEqualTo(process.pid());
        assertThat(exit.stderrTail()).isEqualTo("the tail");
        assertThat(exit.requestedByRuntime()).isFalse();
        assertThat(watcher.exited()).isCompletedWithValue(process);
        assertThat(exits).hasSize(1);
    }

    @Test
    void killsADescendantThatHoldsThePipesAfterTheDrainTimeout() {
        watch("orphan_holds_stdout", Duration.ofMillis(200));

        ProcessExit exit = reported.join();

        assertThat(exit.exitCode()).isZero();
        List<Long> pids = fixtures.awaitPids(2);
        ProcessHandle.of(pids.get(1)).ifPresent(ProcessLeaks::assertDead);
    }

    @Test
    void anExitAfterAStopStartedIsRequestedAndTheTreeIsLeftToTheLadder() {
        ExitWatcher watcher = watch("sleep_long", Duration.ofSeconds(5));
        fixtures.awaitPids(1);

        watcher.stopStarted();
        process.destroy();

        ProcessExit exit = reported.join();
        assertThat(exit.requestedByRuntime()).isTrue();
        assertThat(exit.exitCode()).isEqualTo(143);
    }

    /** Discards what it is given. */
    private static final class OutputStreamSink extends java.io.OutputStream {
        static final OutputStreamSink INSTANCE = new OutputStreamSink();

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }
    }
}
