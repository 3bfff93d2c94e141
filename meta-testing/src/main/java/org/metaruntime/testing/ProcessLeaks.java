package org.metaruntime.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Proof that a test left no process or thread behind. Every check waits a bounded time (a killed orphan is
 * reaped by init a moment later) and never sleeps for a fixed time. Stateless and thread-safe.
 *
 * <pre>{@code
 * @AfterEach
 * void noProcessLeft() {
 *     ProcessLeaks.assertAllGone(ProcessLeaks.pidsIn(pidFile));
 *     ProcessLeaks.assertNoChildProcess();
 * }
 * }</pre>
 */
public final class ProcessLeaks {

    /** How long a process gets to disappear. */
    public static final Duration DEAD_WITHIN = Duration.ofSeconds(15);

    private ProcessLeaks() {
    }

    /**
     * The pids a fixture appended to {@code file}, one a line (a line may go on after the pid, e.g.
     * {@code "<pid> <token>"}); empty when the file does not exist.
     */
    public static List<Long> pidsIn(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(String::strip)
                    .filter(line -> !line.isEmpty()).map(line -> Long.parseLong(line.split("\\s+")[0])).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails unless every process in {@code pids} is gone (or a zombie) within {@link #DEAD_WITHIN}. */
    public static void assertAllGone(Collection<Long> pids) {
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(ProcessLeaks::assertDead);
        }
    }

    /** Fails unless this process (pid and start time) is gone (or a zombie) within {@link #DEAD_WITHIN}. */
    public static void assertDead(ProcessHandle handle) {
        await("pid " + handle.pid() + " to be dead").atMost(DEAD_WITHIN).pollInterval(Duration.ofMillis(20))
                .until(() -> !isAlive(handle));
    }

    /** Fails unless the JVM has no live child process within {@link #DEAD_WITHIN}. */
    public static void assertNoChildProcess() {
        await("no child process of the JVM").atMost(DEAD_WITHIN).pollInterval(Duration.ofMillis(20))
                .until(() -> ProcessHandle.current().children().noneMatch(ProcessLeaks::isAlive));
    }

    /** Fails unless no live thread's name starts with {@code prefix} within {@link #DEAD_WITHIN}. */
    public static void assertNoThreadNamed(String prefix) {
        await("no thread named " + prefix + "*").atMost(DEAD_WITHIN).pollInterval(Duration.ofMillis(20))
                .until(() -> Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.isAlive() && t.getName().startsWith(prefix)));
    }

    /** Whether {@code pid} is a live process (a zombie is not). */
    public static boolean isAlive(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        return handle.isPresent() && isAlive(handle.get());
    }

    /**
     * Whether this very process (same pid and start time, so a reused pid does not count) has not exited; a zombie
     * (exited, not yet reaped) counts as exited.
     */
    public static boolean isAlive(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        if (!Files.isDirectory(Path.of("/proc/self"))) {
            return true;
        }
        try {
            String text = Files.readString(Path.of("/proc", Long.toString(handle.pid()), "stat"),
                    StandardCharsets.ISO_8859_1);
            char state = text.charAt(text.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return false;
        }
    }
}
