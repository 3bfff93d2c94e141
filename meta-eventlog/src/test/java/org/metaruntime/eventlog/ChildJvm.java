package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A {@link LogChild} JVM: its stdout as lines, its stdin to start it, SIGKILL, and a check it is gone. */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final BufferedReader stdout;

    ChildJvm(String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LogChild.class.getName()));
        argv.addAll(List.of(args));
        process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** The next stdout line; fails at end of stream. */
    String readLine() throws IOException {
        String line = stdout.readLine();
        assertThat(line).as("child stdout ended; exit " + (process.isAlive() ? "-" : process.exitValue()))
                .isNotNull();
        return line;
    }

    void go() throws IOException {
        OutputStream in = process.getOutputStream();
        in.write('\n');
        in.flush();
    }

    /** SIGKILL, and wait until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    long pid() {
        return process.pid();
    }

    int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            kill();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(process.pid()).isEmpty()
                || !ProcessHandle.of(process.pid()).get().isAlive());
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid))
                .as("live descendants").doesNotContain(process.pid());
    }
}
