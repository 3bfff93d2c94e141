package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.internal.ProcessLauncher;
import org.metaruntime.testing.LeakCheck;

/** The launch part alone: argv, working directory, environment and token, and spawn failures, with real children. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessLauncherTest {

    @TempDir
    Path tmp;
    private final List<Process> launched = new ArrayList<>();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void destroyWhatIsLeft() {
        for (Process process : launched) {
            process.destroyForcibly();
        }
    }

    private ProcessLauncher.Launched launch(ProcessSpec spec) {
        ProcessLauncher.Launched child = ProcessLauncher.launch(spec);
        launched.add(child.process());
        return child;
    }

    private static String stdoutOf(Process process) throws IOException, InterruptedException {
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.getErrorStream().readAllBytes();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void theChildGetsOnlyThePassThroughNamesTheSpecsVariablesAndItsToken() throws Exception {
        ProcessSpec spec = new Fixtures(tmp).spec("env", "env", "PATH", "HOME", "EXTRA", ProcessSpec.TOKEN_ENV)
                .inheritEnv(false).passThroughEnv(java.util.Set.of("PATH")).env("EXTRA", "x y").build();

        ProcessLauncher.Launched child = launch(spec);

        String out = stdoutOf(child.process());
        assertThat(out).contains("\"EXTRA\": \"x y\"").contains("\"HOME\": null")
                .contains("\"" + ProcessSpec.TOKEN_ENV + "\": \"" + child.token() + "\"");
        assertThat(out).doesNotContain("\"PATH\": null");
        assertThat(child.token()).isNotBlank();
    }

    @Test
    void theChildRunsInTheSpecsWorkingDirectory() throws Exception {
        ProcessSpec spec = ProcessSpec.builder("pwd").command("/bin/sh", "-c", "pwd").workdir(tmp).build();

        assertThat(stdoutOf(launch(spec).process()).strip()).isEqualTo(tmp.toRealPath().toString());
    }

    @Test
    void aMissingWorkingDirectoryFailsToSpawnNamingIt() {
        Path missing = tmp.resolve("missing");
        ProcessSpec spec = ProcessSpec.builder("m").command("/bin/true").workdir(missing).build();

        assertThatThrownBy(() -> ProcessLauncher.launch(spec)).isInstanceOfSatisfying(ProcessBoundaryException.class,
                e -> {
                    assertThat(e.error()).isInstanceOf(ProcessBoundaryError.SpawnFailed.class);
                    assertThat(e.getMessage()).contains("'m'").contains(missing.toString());
                });
    }

    @Test
    void aMissingExecutableFailsToSpawnNamingTheCommand() {
        ProcessSpec spec = ProcessSpec.builder("m").command("/no/such/tool", "--flag").build();

        assertThatThrownBy(() -> ProcessLauncher.launch(spec)).isInstanceOfSatisfying(ProcessBoundaryException.class,
                e -> {
                    assertThat(e.code()).isEqualTo(ProcessBoundaryError.SpawnFailed.CODE);
                    assertThat(e.getMessage()).contains("/no/such/tool");
                });
    }
}
