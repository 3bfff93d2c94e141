package org.metaruntime.supervisor;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Asserts that processes are gone, with a bounded wait. */
final class Pids {

    /** How long a process gets to disappear (an orphan is reaped by init, which may take a moment). */
    static final Duration DEAD_WITHIN = Duration.ofSeconds(15);

    private Pids() {
    }

    /** Fails unless the process is gone (or a zombie) within {@link #DEAD_WITHIN}. */
    static void assertDead(long pid) {
        await("pid " + pid + " to be dead")
                .atMost(DEAD_WITHIN)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> !isAlive(pid));
    }

    /** True if the process exists and has not exited (a zombie has exited). */
    static boolean isAlive(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.isDirectory(Path.of("/proc/self"))) {
            return true;
        }
        try {
            String text = Files.readString(stat, StandardCharsets.ISO_8859_1);
            char state = text.charAt(text.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return false;
        }
    }
}
