package org.metaruntime.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The leak check fails on each kind of leftover, names it, and passes when nothing is left. */
@Timeout(60)
class LeakCheckTest {

    private static final Duration SHORT = Duration.ofMillis(300);

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void cleanUp() {
        release.countDown();
        started.forEach(Process::destroyForcibly);
        started.forEach(p -> ProcessLeaks.assertDead(p.toHandle()));
    }

    private Process sleeper() throws IOException {
        Process process = new ProcessBuilder("sleep", "60").start();
        started.add(process);
        return process;
    }

    @Test
    void aProcessStartedDuringTheTestAndLeftFailsTheCheckWithItsPidAndCommandLine() throws IOException {
        LeakCheck check = LeakCheck.processes().within(SHORT);
        check.beforeEach(null);
        Process left = sleeper();

        assertThatThrownBy(() -> check.afterEach(null)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("pid " + left.pid() + ": sleep 60");
    }

    @Test
    void aProcessStoppedByTheTestPassesAndOneAliveBeforeTheTestIsNotTheTests() throws IOException {
        Process before = sleeper();
        LeakCheck check = LeakCheck.processes().within(SHORT);
        check.beforeEach(null);
        Process stopped = sleeper();
        stopped.destroy();

        check.afterEach(null);
        assertThat(before.isAlive()).isTrue();
    }

    @Test
    void aPidListedInAPidFileFailsTheCheckEvenWhenItIsNoDescendant() throws IOException {
        Process left = sleeper();
        Path pids = dir.resolve("pids");
        LeakCheck check = LeakCheck.processes().within(SHORT).pidFile(() -> pids);
        check.beforeEach(null);
        Files.writeString(pids, left.pid() + "\n", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> check.afterEach(null)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("pid " + left.pid() + " of pids");
    }

    @Test
    void aPidFileWhosePidIsReusedUnderAnotherTokenDoesNotCount() throws IOException {
        Process other = sleeper();
        Path pids = dir.resolve("pids");
        Files.writeString(pids, other.pid() + " not-its-token\n", StandardCharsets.UTF_8);
        LeakCheck check = LeakCheck.processes().within(SHORT).pidFile(() -> pids);
        check.beforeEach(null);

        check.afterEach(null);
    }

    @Test
    void aNewThreadWithAWatchedPrefixFailsTheCheck() {
        LeakCheck check = LeakCheck.processes().within(SHORT).threads("meta-leaky-");
        check.beforeEach(null);
        Thread thread = new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "meta-leaky-1");
        thread.setDaemon(true);
        thread.start();

        assertThatThrownBy(() -> check.afterEach(null)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("thread meta-leaky-1");
    }

    @Test
    void aCounterThatStaysAboveZeroFailsTheCheckAndOneBackAtZeroPasses() {
        AtomicInteger leases = new AtomicInteger(1);
        LeakCheck check = LeakCheck.processes().within(SHORT).zero("leases", leases::get);
        check.beforeEach(null);

        assertThatThrownBy(() -> check.afterEach(null)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("leases = 1");
        leases.set(0);
        check.afterEach(null);
    }

    @Test
    void aPipeLeftOpenFailsTheDescriptorCheck() throws IOException {
        assertThat(ProcessLeaks.openPipes()).as("needs /proc/self/fd").isNotNegative();
        LeakCheck check = LeakCheck.processes().within(SHORT).descriptors();
        check.beforeEach(null);
        Process left = sleeper();   // its stdin, stdout and stderr are pipes of this JVM

        assertThatThrownBy(() -> check.afterEach(null)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("more pipe(s) than before the test");
        left.destroyForcibly();
        ProcessLeaks.assertDead(left.toHandle());
        left.getInputStream().close();
        left.getErrorStream().close();
        left.getOutputStream().close();
        check.afterEach(null);
    }
}
