package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * meta-eventlog and SQLite's driver are optional dependencies: a host without them runs, and asking for the embedded
 * state gets a ConfigException that says which artifact to add. Runs {@link WithoutEventLogHost} in a JVM whose class
 * path is this one without them.
 */
@Timeout(120)
class WithoutEventLogTest {

    @TempDir
    Path dir;

    @Test
    void aHostWithoutMetaEventlogRunsAndAskingForTheEmbeddedStateSaysWhatToAdd() throws Exception {
        List<String> lines = runHostWithout("meta-eventlog", "sqlite-jdbc", "postgresql");
        assertThat(lines).containsSubsequence(
                "sqlite on the class path: false",
                "meta-eventlog on the class path: false",
                "started without a state directory; event log: false");
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("ConfigException at persistentState: ")
                .contains("org.metaruntime:meta-eventlog").contains("org.xerial:sqlite-jdbc"));
        assertThat(dir.resolve("state")).doesNotExist();
    }

    @Test
    void aHostWithMetaEventlogButNoSqliteDriverIsToldToAddTheDriver() throws Exception {
        List<String> lines = runHostWithout("sqlite-jdbc");
        assertThat(lines).containsSubsequence(
                "sqlite on the class path: false",
                "meta-eventlog on the class path: true",
                "started without a state directory; event log: false");
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("ConfigException at persistentState: ")
                .contains("org.xerial:sqlite-jdbc").doesNotContain("org.metaruntime:meta-eventlog"));
        assertThat(dir.resolve("state")).doesNotExist();
    }

    /** The lines {@link WithoutEventLogHost} prints in a JVM whose class path is this one without {@code left}. */
    private List<String> runHostWithout(String... left) throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> Arrays.stream(left).noneMatch(entry::contains))
                .collect(Collectors.joining(File.pathSeparator));
        Path out = dir.resolve("out.txt");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath, WithoutEventLogHost.class.getName(), dir.resolve("state").toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("the child JVM ended").isTrue();
        } finally {
            child.destroyForcibly().waitFor();
        }
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(String.join("\n", lines)).isZero();
        return lines;
    }
}
