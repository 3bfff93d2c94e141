package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/** The real fixture programs of the tests, and the check that none of their processes is left behind. */
final class Fixtures {

    private static String python;

    private Fixtures() {
    }

    /** The real python interpreter (not a shim); fails when missing and {@code CI} is set, else skips. */
    static synchronized String python() {
        if (python == null) {
            try {
                Process probe = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)")
                        .redirectErrorStream(true).start();
                String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (!probe.waitFor(30, TimeUnit.SECONDS) || probe.exitValue() != 0 || out.isEmpty()) {
                    throw new IOException("python3 did not report its executable: " + out);
                }
                python = out;
            } catch (IOException | InterruptedException e) {
                if (System.getenv("CI") != null) {
                    fail("python3 is required by this test: " + e);
                }
                Assumptions.abort("python3 is not available: " + e);
            }
        }
        return python;
    }

    static Path script(String name) {
        try {
            return Path.of(Fixtures.class.getResource("/fixtures/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> pythonCommand(String script, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(python(), script(script).toString()));
        command.addAll(List.of(args));
        return command;
    }

    static List<Long> pids(Path pidfile) {
        try {
            if (!Files.exists(pidfile)) {
                return List.of();
            }
            return Files.readAllLines(pidfile).stream().map(String::strip).filter(s -> !s.isEmpty())
                    .map(Long::parseLong).collect(Collectors.toList());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every pid written to {@code pidfile} is gone (shortly: a killed orphan is reaped by init). */
    static void assertAllGone(Path pidfile) {
        List<Long> pids = pids(pidfile);
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> assertThat(pids)
                .allSatisfy(pid -> assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                        .as("process %d is still alive", pid).isFalse()));
    }
}
