package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Shared test helpers: where things are, required tools, and one-shot child processes over files. */
final class Fixtures {

    private Fixtures() {
    }

    /** The examples module's directory (Surefire runs with it as {@code basedir}). */
    static Path examplesDir() {
        return Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    }

    /** The repository root. */
    static Path repositoryRoot() {
        return examplesDir().getParent();
    }

    /** Fails under CI ({@code CI} set) and skips elsewhere when {@code tool} is not on the PATH. */
    static void requireOnPath(String tool) {
        boolean found = false;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                found = true;
                break;
            }
        }
        if (!found && System.getenv("CI") != null) {
            fail(tool + " is required to run this test under CI but is not on the PATH");
        }
        assumeTrue(found, tool + " is not on the PATH");
    }

    /** The result of {@link #runToEnd}. */
    record Run(int exitCode, List<String> stdout, String stderr, long pid) {
    }

    /**
     * Runs {@code command} with {@code input} as its whole stdin (then end of file), waits at most
     * {@code timeoutSeconds}, and returns what it wrote. The process is killed if it does not exit in time.
     */
    static Run runToEnd(List<String> command, Path workdir, String input, Map<String, String> env,
                        long timeoutSeconds) throws Exception {
        Path dir = Files.createTempDirectory("meta-examples-run");
        Path in = Files.writeString(dir.resolve("stdin"), input, StandardCharsets.UTF_8);
        ProcessBuilder builder = new ProcessBuilder(command).directory(workdir.toFile())
                .redirectInput(in.toFile())
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            boolean exited = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            assertThat(exited).as("%s exited within %d s", command, timeoutSeconds).isTrue();
            return new Run(process.exitValue(),
                    Files.readAllLines(dir.resolve("stdout"), StandardCharsets.UTF_8),
                    Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8), process.pid());
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.onExit().get(10, TimeUnit.SECONDS);
        }
    }

    /** Asserts that no child process of this JVM is alive. */
    static void assertNoChildProcesses() {
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::info))
                .as("processes started by the test that are still alive")
                .isEmpty();
    }
}
