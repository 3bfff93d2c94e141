package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.internal.HostWatchdog;

/**
 * The watchdog of this JVM: started before the first child, detached from the JVM's tree, without the host token
 * itself, while every child carries it. (What it does when the host dies is tested with a real host JVM killed by
 * SIGKILL in meta-core's {@code HostShutdownTest}.)
 */
@Timeout(60)
class HostWatchdogTest {

    @TempDir
    Path dir;

    private Fixtures fixtures;

    @AfterEach
    void nothingLeft() {
        if (fixtures != null) {
            fixtures.closeAndAssertNoneAlive();
        }
    }

    @Test
    void everyChildCarriesTheHostTokenAndTheWatchdogIsADetachedProcessWithoutIt() throws IOException {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/environ")), "needs Linux /proc");
        fixtures = new Fixtures(dir);
        RecordingListener listener = new RecordingListener();
        fixtures.start(fixtures.spec("env", "env", ProcessSpec.HOST_TOKEN_ENV).build(), listener)
                .exitFuture().join();
        assertThat(HostWatchdog.hostToken()).matches("[0-9a-f]{32}");
        assertThat(listener.lines.get(0))
                .isEqualTo("{\"" + ProcessSpec.HOST_TOKEN_ENV + "\": \"" + HostWatchdog.hostToken() + "\"}");

        await().atMost(Duration.ofSeconds(30)).until(() -> HostWatchdog.pid().isPresent());
        long watchdog = HostWatchdog.pid().orElseThrow();
        ProcessHandle handle = ProcessHandle.of(watchdog).orElseThrow();
        assertThat(handle.isAlive()).isTrue();
        assertThat(ProcessHandle.current().descendants().map(ProcessHandle::pid)).doesNotContain(watchdog);
        assertThat(environ(watchdog)).noneMatch(v -> v.startsWith(ProcessSpec.HOST_TOKEN_ENV + "="));
        // Blocked on its FIFO, whose name is already gone.
        assertThat(Files.readSymbolicLink(Path.of("/proc", Long.toString(watchdog), "fd", "4")).toString())
                .endsWith("lifeline (deleted)");
    }

    @Test
    void aSpecCannotSetTheHostToken() {
        assertThatThrownBy(() -> ProcessSpec.builder("m").command("tool").env(ProcessSpec.HOST_TOKEN_ENV, "x").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(ProcessSpec.HOST_TOKEN_ENV);
    }

    private static List<String> environ(long pid) throws IOException {
        return Arrays.asList(Files.readString(Path.of("/proc", Long.toString(pid), "environ"), StandardCharsets.UTF_8)
                .split("\0"));
    }
}
