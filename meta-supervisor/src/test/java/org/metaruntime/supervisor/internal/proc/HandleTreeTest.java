package org.metaruntime.supervisor.internal.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The tree of a host without {@code /proc}: descendants through {@link ProcessHandle}, plus the snapshots taken. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandleTreeTest {

    @Test
    void findsTheDescendantsAndKeepsThoseItSnapshotted() throws IOException, InterruptedException {
        Process root = new ProcessBuilder("sh", "-c", "sleep 30 & wait").start();
        ProcessTree tree = new HandleTree(root.toHandle());
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> tree.alive(System.nanoTime()).size() == 2);
            List<ProcessHandle> alive = tree.alive(System.nanoTime());
            assertThat(alive.get(0)).isEqualTo(root.toHandle());
            ProcessHandle sleeper = alive.get(1);
            tree.snapshot(System.nanoTime());

            root.destroyForcibly().waitFor();
            assertThat(tree.alive(System.nanoTime())).as("the re-parented sleeper, from the snapshot")
                    .containsExactly(sleeper);
            assertThat(tree.aliveAfterExit(System.nanoTime())).containsExactly(sleeper);

            sleeper.destroyForcibly();
            await().atMost(Duration.ofSeconds(10)).until(() -> !sleeper.isAlive());
            assertThat(tree.alive(System.nanoTime())).isEmpty();
        } finally {
            tree.alive(System.nanoTime()).forEach(ProcessHandle::destroyForcibly);
            root.destroyForcibly().waitFor();
        }
    }
}
