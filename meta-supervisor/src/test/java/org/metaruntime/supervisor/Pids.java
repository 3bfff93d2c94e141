package org.metaruntime.supervisor;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Asserts that processes are gone, with a bounded wait. */
final class Pids {

    /** How long a process gets to disappear (an orphan is reaped by init, which may take a moment). */
    static final Duration DEAD_WITHIN = Duration.ofSeconds(15);

    private Pids() {
    }

    /** Fails unless this process (pid and start time) is gone (or a zombie) within {@link #DEAD_WITHIN}. */
    static void assertDead(ProcessHandle handle) {
        await("pid " + handle.pid() + " to be dead")
                .atMost(DEAD_WITHIN)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> !isAlive(handle));
    }

    /**
     * True if this very process (same pid and start time, so a reused pid does not count) has not exited.
     */
    static boolean isAlive(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        long pid = handle.pid();
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
