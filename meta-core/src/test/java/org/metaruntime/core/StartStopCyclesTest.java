package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessListener;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.StopReport;
import org.metaruntime.supervisor.StopStage;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.ProcessLeaks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts and stops children over and over: no orphan (every process a fixture started, its grandchildren included,
 * is gone after each stop, and the JVM has no live descendant at the end), and the threads and file descriptors
 * after the last cycle are those before the first.
 *
 * <p>Sizes: {@code soak.cycles} process cycles and {@code soak.runtimeCycles} runtime cycles, 150 and 20 in the build
 * (meta-core's pom; 500 and 60 when the properties are not set). The hand-run size: {@code mvn -B -q -pl meta-core -am verify -Dtest=StartStopCyclesTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dsoak.cycles=10000 -Dsoak.runtimeCycles=10000
 * -Djunit.jupiter.execution.timeout.mode=disabled}.
 */
class StartStopCyclesTest {

    private static final Logger LOG = LoggerFactory.getLogger(StartStopCyclesTest.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String> MODES = List.of("plain", "grandchild", "plain", "detached", "plain",
            "grandchild", "plain", "holder", "grandchild", "stubborn");
    private static final StopLadder LADDER = new StopLadder(Duration.ofMillis(300), Duration.ofMillis(100),
            Duration.ofSeconds(2));
    /** A child that exits at the end of its stdin gets time for it even on a loaded machine; it takes none. */
    private static final StopLadder PATIENT = new StopLadder(Duration.ofSeconds(20), Duration.ofMillis(100),
            Duration.ofSeconds(2));
    private static final int WARM_UP = 20;

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void processStartStopCyclesLeaveNoOrphanThreadOrDescriptor() throws Exception {
        int cycles = Integer.getInteger("soak.cycles", 500);
        Set<Thread> threads = SoakSupport.metaThreads();
        long[] fds = null;
        long started = System.nanoTime();
        for (int i = 0; i < WARM_UP + cycles; i++) {
            if (i == WARM_UP) {
                awaitQuiet(threads);
                fds = SoakSupport.openDescriptors();
            }
            String mode = MODES.get(i % MODES.size());
            Path pidfile = dir.resolve("pids-" + i);
            ModuleProcess process = startReady(mode, pidfile);
            StopReport report = process.stop(mode.equals("stubborn") ? LADDER : PATIENT);
            assertThat(report.survivors()).as("cycle %d (%s): %s", i, mode, report).isZero();
            assertThat(report.stage()).as("cycle %d (%s)", i, mode).isEqualTo(mode.equals("stubborn")
                    ? StopStage.KILLED : StopStage.EXITED_AFTER_STDIN_CLOSE);
            List<ProcessLeaks.Spawned> spawned = SoakSupport.spawned(pidfile);
            assertThat(spawned).as("cycle %d (%s)", i, mode).hasSize(mode.equals("plain") || mode.equals("stubborn") ? 1 : 2);
            SoakSupport.assertAllGone(spawned, Duration.ofSeconds(5), "cycle " + i + " (" + mode + ") left");
            Files.delete(pidfile);
        }
        LOG.info("start/stop: {} process cycles in {} ms", WARM_UP + cycles, (System.nanoTime() - started) / 1_000_000);
        awaitFlat(threads, fds);
    }

    @Test
    @Timeout(300)
    void runtimeStartCloseCyclesLeaveNoOrphanThreadOrDescriptor() throws Exception {
        int cycles = Integer.getInteger("soak.runtimeCycles", 60);
        String python = Fixtures.python();
        Set<Thread> threads = SoakSupport.metaThreads();
        long[] fds = null;
        long started = System.nanoTime();
        for (int i = 0; i < WARM_UP + cycles; i++) {
            if (i == WARM_UP) {
                awaitQuiet(threads);
                fds = SoakSupport.openDescriptors();
            }
            Path pidfile = dir.resolve("pids-" + i);
            boolean mcp = i % 2 == 0;
            ModuleConfig module = mcp
                    ? ModuleConfig.builder("one").command(python, FixtureScripts.mcpServer().toString(), "--pid-file",
                    pidfile.toString()).build()
                    : ModuleConfig.builder("one").command("sh", SoakSupport.script("cycle_child.sh").toString(),
                    "event").env("FIXTURE_PIDFILE", pidfile.toString()).build();
            MetaConfig.Builder config = MetaConfig.builder().module(module).discover("one");
            if (mcp) {
                config.preSpawn(PreSpawnData.mcp("one"));
            }
            UnifiedRuntime runtime = UnifiedRuntime.builder(config.build()).options(RuntimeOptions.builder()
                    .stopStdinGrace(Duration.ofMillis(200)).stopTermGrace(Duration.ofMillis(500)).build()).start();
            assertThat(runtime.loadedModules()).containsExactly("one");
            if (mcp) {
                assertThat(runtime.routeModuleCall(new ModuleRouteRequest("one", "whoami",
                        MAPPER.createObjectNode().put("token", "t" + i)), Duration.ofSeconds(20)).payload()
                        .path("token").asText()).isEqualTo("t" + i);
            }
            RuntimeShutdownReport report = runtime.shutdown();
            assertThat(report.orphanProcesses()).isZero();
            List<ProcessLeaks.Spawned> spawned = SoakSupport.spawned(pidfile);
            assertThat(spawned).hasSize(mcp ? 1 : 2);
            SoakSupport.assertAllGone(spawned, Duration.ofSeconds(5), "runtime cycle " + i + " left");
            Files.delete(pidfile);
        }
        LOG.info("start/stop: {} runtime cycles in {} ms", WARM_UP + cycles, (System.nanoTime() - started) / 1_000_000);
        awaitFlat(threads, fds);
    }

    /**
     * A child that leaves a grandchild and exits at once, right after another child was stopped: the leftover must be
     * killed. The other stop has just taken a pass over {@code /proc}, from before the grandchild existed; a lookup
     * that reused it would miss the re-parented grandchild and leave it as an orphan (the process layer did, when
     * passes younger than 20 ms were shared). Under load the grandchild may still be exec'ing "sleep" when it is
     * looked up, with an environment that reads empty for that moment: it must not be taken as one without the
     * token.
     */
    @Test
    @Timeout(120)
    void aGrandchildForkedAfterTheLastProcPassIsStillKilled() throws Exception {
        List<ProcessLeaks.Spawned> all = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 100; i++) {
                ModuleProcess other = startReady("plain", dir.resolve("other-" + i));
                all.addAll(SoakSupport.spawned(dir.resolve("other-" + i)));
                other.stop(StopLadder.immediate());   // takes a fresh pass over /proc
                ModuleProcess process = startReady("grandchild", dir.resolve("pids-" + i));
                all.addAll(SoakSupport.spawned(dir.resolve("pids-" + i)));
                assertThat(process.stop(LADDER).survivors()).isZero();
            }
            SoakSupport.assertAllGone(all, Duration.ofSeconds(5));
        } finally {
            all.stream().filter(SoakSupport::alive)
                    .forEach(p -> ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly));
            SoakSupport.assertAllGone(all, Duration.ofSeconds(5));
        }
    }

    /** Starts the cycle fixture in {@code mode} and waits until its tree is in place. */
    private static ModuleProcess startReady(String mode, Path pidfile) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(1);
        ProcessListener listener = line -> {
            if (line.equals("ready")) {
                ready.countDown();
            }
        };
        ModuleProcess process = ModuleProcess.start(ProcessSpec.builder("cycle")
                .command("sh", SoakSupport.script("cycle_child.sh").toString(), mode)
                .env("FIXTURE_PIDFILE", pidfile.toString()).build(), listener);
        assertThat(ready.await(30, TimeUnit.SECONDS)).as("%s ready", mode).isTrue();
        return process;
    }

    /** The runtime's threads of earlier cycles have ended (idle pool threads end a few seconds after their work). */
    private static void awaitQuiet(Set<Thread> baseline) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> SoakSupport.newMetaThreads(baseline).isEmpty());
    }

    private static void awaitFlat(Set<Thread> threads, long[] fds) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            assertThat(SoakSupport.newMetaThreads(threads)).as("meta-* threads left").isEmpty();
            long[] now = SoakSupport.openDescriptors();
            assertThat(now[1]).as("pipes open").isLessThanOrEqualTo(fds[1]);
            assertThat(now[0]).as("descriptors open").isLessThanOrEqualTo(fds[0] + 2);
            assertThat(SoakSupport.liveDescendants()).as("live descendants").isEmpty();
        });
    }
}
