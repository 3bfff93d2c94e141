package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.ProcessLeaks.Spawned;

/**
 * What the soak, start/stop and host-shutdown tests share: the pid files their fixtures write ({@code <pid> <token>}
 * per line, the token being the process layer's {@code META_PROCESS_TOKEN}, read by {@link ProcessLeaks}), and the
 * counts of threads and file descriptors that must come back to their baseline between cycles.
 */
final class SoakSupport {

    private SoakSupport() {
    }

    static Path script(String name) {
        try {
            return Path.of(SoakSupport.class.getResource("/soak/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The processes listed in {@code pidfile} (none when it does not exist). */
    static List<Spawned> spawned(Path pidfile) {
        return ProcessLeaks.spawnedIn(pidfile);
    }

    /** Whether the process is still alive and still the one that was spawned (see {@link ProcessLeaks#isAlive(Spawned)}). */
    static boolean alive(Spawned process) {
        return ProcessLeaks.isAlive(process);
    }

    /** Every listed process is gone within {@code within} (a killed orphan is reaped by init shortly after). */
    static void assertAllGone(Collection<Spawned> processes, Duration within) {
        assertAllGone(processes, within, "processes still alive");
    }

    /** {@link #assertAllGone(Collection, Duration)}, describing the failure as {@code what}. */
    static void assertAllGone(Collection<Spawned> processes, Duration within, String what) {
        await().atMost(within).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(processes.stream().filter(SoakSupport::alive).collect(Collectors.toList()))
                        .as(what).isEmpty());
    }

    /** The live threads whose name starts with {@code meta-} (every thread of the runtime). */
    static Set<Thread> metaThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(thread -> thread.getName().startsWith("meta-")).collect(Collectors.toSet());
    }

    /** The names of {@link #metaThreads()} that are not in {@code baseline}. */
    static List<String> newMetaThreads(Set<Thread> baseline) {
        return metaThreads().stream().filter(thread -> !baseline.contains(thread)).map(Thread::getName).sorted()
                .collect(Collectors.toList());
    }

    /** The JVM's open file descriptors, by kind: {@code [all, pipes]} (Linux; {@code [-1, -1]} elsewhere). */
    static long[] openDescriptors() {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return new long[] {-1, -1};
        }
        long all = 0;
        long pipes = 0;
        try (Stream<Path> list = Files.list(fds)) {
            for (Path fd : (Iterable<Path>) list::iterator) {
                all++;
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("pipe:")) {
                        pipes++;
                    }
                } catch (IOException closedMeanwhile) {
                    all--;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return new long[] {all, pipes};
    }

    /** The pids of this JVM's live descendants. */
    static List<Long> liveDescendants() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toList());
    }
}
