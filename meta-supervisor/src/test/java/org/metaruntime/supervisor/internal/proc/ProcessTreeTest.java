package org.metaruntime.supervisor.internal.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.testing.LeakCheck;

/** The Linux lookups behind a child's tree: the token, the start-time filter, the fork counter. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessTreeTest {

    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void needsProc() {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/environ")), "needs /proc");
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void destroyWhatIsLeft() {
        started.forEach(Process::destroyForcibly);
    }

    private Process sleeper(String token) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("sleep", "60");
        builder.environment().remove(ProcessSpec.TOKEN_ENV);
        if (token != null) {
            builder.environment().put(ProcessSpec.TOKEN_ENV, token);
        }
        Process process = builder.start();
        started.add(process);
        return process;
    }

    @Test
    void aTokenCarrierIsInTheTreeOfAChildStartedBeforeItButNotOfOneStartedAfter() throws IOException {
        String token = UUID.randomUUID().toString();
        Process before = sleeper(null);
        await().until(() -> ProcessTable.startTicksOf(before.pid()) > 0);
        Process carrier = sleeper(token);
        long carrierStart = ProcessTable.startTicksOf(carrier.pid());
        // Start times count clock ticks: spawn until one lands on a later tick than the carrier's.
        Process after = sleeper(null);
        while (ProcessTable.startTicksOf(after.pid()) <= carrierStart) {
            after = sleeper(null);
        }

        // Neither is the carrier's parent: only the token ties the carrier to a tree.
        assertThat(new ProcTree(before.toHandle(), token, -1).alive(System.nanoTime())).contains(carrier.toHandle());
        assertThat(new ProcTree(before.toHandle(), token, -1).aliveAfterExit(System.nanoTime()))
                .contains(carrier.toHandle());
        // A process started before the child cannot be one of its descendants, whatever its environment says.
        assertThat(new ProcTree(after.toHandle(), token, -1).alive(System.nanoTime())).doesNotContain(carrier.toHandle());
    }

    @Test
    void aLookupNeverUsesAPassOlderThanTheMomentItNames() throws IOException {
        String token = UUID.randomUUID().toString();
        Process root = sleeper(null);
        await().until(() -> ProcessTable.startTicksOf(root.pid()) > 0);
        ProcessTree tree = new ProcTree(root.toHandle(), token, -1);
        assertThat(tree.alive(System.nanoTime())).containsExactly(root.toHandle());

        // Forked right after that pass: a lookup naming a later moment must see it.
        Process carrier = sleeper(token);
        assertThat(tree.alive(System.nanoTime())).contains(carrier.toHandle());
    }

    @Test
    void theForkCounterCountsEverySpawn() throws IOException {
        long before = ProcessTree.forksSinceBoot();
        sleeper(null);
        assertThat(before).isPositive();
        assertThat(ProcessTree.forksSinceBoot()).isGreaterThan(before);
    }

    @Test
    void aForkAfterTheSpawnMakesTheExitLookAtTheProcessTable() throws IOException {
        String token = UUID.randomUUID().toString();
        long forks = ProcessTree.forksSinceBoot();
        Process root = sleeper(null);
        Process carrier = sleeper(token);
        // Two spawns since the count (the child's and a later one): the lookup cannot conclude that nothing is
        // left, and finds the carrier in the process table.
        assertThat(new ProcTree(root.toHandle(), token, forks).aliveAfterExit(System.nanoTime()))
                .contains(carrier.toHandle());
    }

    @Test
    void aScopedLookupReadsOnlyProcessesCreatedAfterTheChildAndFindsAReparentedCarrier() throws IOException {
        String token = UUID.randomUUID().toString();
        Process before = sleeper(null);
        ProcessTree.SpawnMark mark = ProcessTree.beforeSpawn();
        Process root = sleeper(null);
        // Not the root's child: only the token ties it to the tree, as for a re-parented descendant.
        Process carrier = sleeper(token);
        ProcessTree tree = new ProcTree(root.toHandle(), token, mark);
        assertThat(tree.alive(System.nanoTime())).containsExactly(root.toHandle(), carrier.toHandle());

        ProcessTable.Candidates candidates = ProcessTable.takenAfter(System.nanoTime())
                .createdAfter(root.pid(), mark.forks(), mark.tasks());
        assertThat(candidates.scoped()).isTrue();
        assertThat(candidates.pids()).contains(carrier.pid()).doesNotContain(before.pid(), root.pid(),
                ProcessHandle.current().pid());
    }

    @Test
    void aSpawnMarkThatIsUnknownReadsEveryProcess() throws IOException {
        Process root = sleeper(null);
        ProcessTable.Candidates candidates = ProcessTable.takenAfter(System.nanoTime())
                .createdAfter(root.pid(), -1, -1);
        assertThat(candidates.scoped()).isFalse();
        assertThat(candidates.pids()).contains(root.pid());
    }

    @Test
    void thePidRangeWrapsAtPidMax() {
        assertThat(ProcessTable.inCyclicRange(150, 100, 200)).isTrue();
        assertThat(ProcessTable.inCyclicRange(200, 100, 200)).isTrue();
        assertThat(ProcessTable.inCyclicRange(100, 100, 200)).isFalse();
        assertThat(ProcessTable.inCyclicRange(201, 100, 200)).isFalse();
        // handed out after 32000, then wrapped round to 500
        assertThat(ProcessTable.inCyclicRange(32001, 32000, 500)).isTrue();
        assertThat(ProcessTable.inCyclicRange(499, 32000, 500)).isTrue();
        assertThat(ProcessTable.inCyclicRange(600, 32000, 500)).isFalse();
        assertThat(ProcessTable.inCyclicRange(32000, 32000, 500)).isFalse();
        assertThat(ProcessTable.inCyclicRange(32000, 32000, 32000)).isFalse();
    }

    @Test
    void descendantsAreWalkedDownFromTheChildWithoutReadingOtherProcesses() throws IOException {
        Assumptions.assumeTrue(Files.exists(Path.of("/proc/self/task", Long.toString(ProcessHandle.current().pid()),
                "children")), "needs /proc/<pid>/task/<tid>/children");
        Process root = new ProcessBuilder("sh", "-c", "sh -c 'sleep 60 & wait' & wait").start();
        started.add(root);
        await().until(() -> root.toHandle().descendants().count() == 2);
        List<Long> expected = root.toHandle().descendants().map(ProcessHandle::pid).toList();
        // No candidates at all: only the walk down the children lists can find them.
        assertThat(ProcessTable.takenAfter(System.nanoTime()).descendantsOf(root.pid(), new long[0]))
                .containsExactlyInAnyOrderElementsOf(expected);
        root.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
    }
}
