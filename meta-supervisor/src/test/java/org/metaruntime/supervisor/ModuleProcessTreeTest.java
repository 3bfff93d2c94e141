package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.testing.ProcessLeaks;

/** Grandchildren, orphans and the threads of a child. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModuleProcessTreeTest {

    @RegisterExtension
    final Fixtures fixtures = new Fixtures();
    final RecordingListener listener = new RecordingListener();

    static List<Thread> threadsOf(String moduleId) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("meta-" + moduleId + "-"))
                .toList();
    }

    @Test
    @Timeout(60)
    void aGrandchildHoldingStdoutIsKilledAfterTheChildExits() {
        ProcessSpec spec = fixtures.spec("holder", "orphan_holds_stdout")
                .exitDrainTimeout(Duration.ofMillis(200)).build();
        ModuleProcess process = fixtures.start(spec, listener);
        await().until(() -> listener.lines.contains("parent done"));
        ProcessHandle grandchild = ProcessHandle.of(fixtures.awaitPids(2).get(1)).orElseThrow();
        ProcessExit exit = process.exitFuture().join();
        assertThat(exit.exitCode()).isZero();
        // No stop(): the exit itself must clean up the grandchild and the reader threads.
        ProcessLeaks.assertDead(grandchild);
        listener.stdoutClosed.join();
        assertThat(listener.lines).containsExactly("parent done");
        await().atMost(ProcessLeaks.DEAD_WITHIN).until(() -> threadsOf("holder").isEmpty());
    }

    @Test
    @Timeout(60)
    void aDetachedGrandchildIsFoundByItsTokenAndKilledWhenTheChildExits() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs /proc");
        ModuleProcess process = fixtures.start(fixtures.spec("detached", "orphan_detached").build(), listener);
        // Take the handle while the grandchild surely runs (the line is written after its pid), so that a
        // reused pid cannot pass for it later.
        await().until(() -> listener.lines.contains("parent done"));
        ProcessHandle grandchild = ProcessHandle.of(fixtures.awaitPids(2).get(1)).orElseThrow();
        ProcessExit exit = process.exitFuture().join();
        assertThat(exit.exitCode()).isZero();
        // It holds none of our pipes and is no descendant of anything we own: only its token finds it.
        ProcessLeaks.assertDead(grandchild);
        StopReport report = process.stop(StopLadder.defaults());
        assertThat(report).isEqualTo(new StopReport("detached", process.pid(), StopStage.ALREADY_EXITED,
                java.util.OptionalInt.of(0), 0));
    }

    @Test
    @Timeout(60)
    void aGrandchildThatClearedItsEnvironmentIsBeyondReach() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs /proc");
        ModuleProcess process = fixtures.start(fixtures.spec("cleared", "orphan_env_cleared").build(), listener);
        await().until(() -> listener.lines.contains("parent done"));
        ProcessHandle grandchild = ProcessHandle.of(fixtures.awaitPids(2).get(1)).orElseThrow();
        try {
            process.exitFuture().join();
            StopReport report = process.stop(StopLadder.defaults());
            assertThat(report.stage()).isEqualTo(StopStage.ALREADY_EXITED);
            // The documented limit: without the token, a re-parented process cannot be told apart.
            assertThat(ProcessLeaks.isAlive(grandchild)).isTrue();
        } finally {
            grandchild.destroyForcibly();
        }
    }

    @Test
    @Timeout(60)
    void stopSignalsGrandchildrenOfALiveChild() {
        ProcessSpec spec = ProcessSpec.builder("wrapper")
                .command("/bin/sh", "-c",
                        "echo $$ >> \"$FIXTURE_PID_FILE\"; sleep 300 & echo $! >> \"$FIXTURE_PID_FILE\"; "
                                + "echo ready; wait")
                .env("FIXTURE_PID_FILE", fixtures.pidFile().toString())
                .build();
        ModuleProcess process = fixtures.start(spec, listener);
        await().until(() -> listener.lines.contains("ready"));
        ProcessHandle grandchild = ProcessHandle.of(fixtures.awaitPids(2).get(1)).orElseThrow();
        StopReport report = process.stop(new StopLadder(Duration.ofMillis(100), Duration.ofSeconds(10),
                Duration.ofSeconds(10)));
        assertThat(report.stage()).isEqualTo(StopStage.EXITED_AFTER_SIGTERM);
        assertThat(report.survivors()).isZero();
        ProcessLeaks.assertDead(grandchild);
    }

    @Test
    @Timeout(60)
    void aDescendantWithoutTheTokenIsStillFoundWhileItIsADescendant() {
        ProcessSpec spec = ProcessSpec.builder("attached")
                .command("/bin/sh", "-c",
                        "echo $$ >> \"$FIXTURE_PID_FILE\"; env -i sleep 300 </dev/null >/dev/null 2>&1 & "
                                + "echo $! >> \"$FIXTURE_PID_FILE\"; echo ready; wait")
                .env("FIXTURE_PID_FILE", fixtures.pidFile().toString())
                .build();
        ModuleProcess process = fixtures.start(spec, listener);
        await().until(() -> listener.lines.contains("ready"));
        ProcessHandle grandchild = ProcessHandle.of(fixtures.awaitPids(2).get(1)).orElseThrow();
        StopReport report = process.stop(new StopLadder(Duration.ofMillis(100), Duration.ofSeconds(10),
                Duration.ofSeconds(10)));
        assertThat(report.survivors()).isZero();
        ProcessLeaks.assertDead(grandchild);
    }

    @Test
    @Timeout(60)
    void aLiveChildCostsAtMostTwoThreadsAndNoneAfterItEnds() {
        List<String> ids = List.of("threads-a", "threads-b", "threads-c");
        List<ModuleProcess> processes = ids.stream()
                .map(id -> fixtures.start(fixtures.spec(id, "echo").build(), new RecordingListener()))
                .toList();
        for (ModuleProcess process : processes) {
            process.send("ping");
        }
        fixtures.awaitPids(3);
        for (String id : ids) {
            assertThat(threadsOf(id)).hasSizeLessThanOrEqualTo(2)
                    .extracting(Thread::getName)
                    .allMatch(name -> name.equals("meta-" + id + "-stdout") || name.equals("meta-" + id + "-stderr"));
            assertThat(threadsOf(id)).allMatch(Thread::isDaemon);
        }
        processes.forEach(ModuleProcess::close);
        for (String id : ids) {
            await().atMost(ProcessLeaks.DEAD_WITHIN).until(() -> threadsOf(id).isEmpty());
        }
    }

    private static long openFileDescriptors() throws java.io.IOException {
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    @Timeout(120)
    void noFileDescriptorOutlivesItsChild() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc");
        // Warm up: classes, pools and the JDK's own descriptors.
        fixtures.start(fixtures.spec("fd-warm", "echo").build(), new RecordingListener()).close();
        await().atMost(ProcessLeaks.DEAD_WITHIN).until(() -> threadsOf("fd-warm").isEmpty());
        long before = openFileDescriptors();
        for (int i = 0; i < 20; i++) {
            ModuleProcess process = fixtures.start(fixtures.spec("fd-" + i, "echo").build(),
                    new RecordingListener());
            process.send("hello");
            process.close();
        }
        // Each child had three pipes; all of them must be closed again.
        await().atMost(ProcessLeaks.DEAD_WITHIN).until(() -> openFileDescriptors() <= before);
    }
}
