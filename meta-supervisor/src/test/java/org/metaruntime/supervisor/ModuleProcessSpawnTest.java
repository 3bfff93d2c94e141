package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Spawn failures and the child's environment. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModuleProcessSpawnTest {

    @TempDir
    Path tmp;
    @RegisterExtension
    final Fixtures fixtures = new Fixtures();
    final RecordingListener listener = new RecordingListener();

    @Test
    @Timeout(60)
    void aMissingExecutableIsSpawnFailedNamingTheCommand() {
        ProcessSpec spec = ProcessSpec.builder("ghost").command("/nonexistent/meta-no-such-tool", "--x").build();
        assertThatThrownBy(() -> fixtures.start(spec, listener))
                .isInstanceOfSatisfying(ProcessBoundaryException.class, e -> {
                    assertThat(e.moduleId()).isEqualTo("ghost");
                    assertThat(e.error()).isInstanceOf(ProcessBoundaryError.SpawnFailed.class);
                    assertThat(e.error().message()).contains("/nonexistent/meta-no-such-tool");
                    assertThat(e.getMessage()).contains("ghost").contains("meta-no-such-tool");
                });
    }

    @Test
    @Timeout(60)
    void aBadWorkdirIsSpawnFailedNamingTheCommandAndDirectory() {
        Path missing = tmp.resolve("no-such-dir");
        ProcessSpec spec = fixtures.spec("lost", "valid_line").workdir(missing).build();
        assertThatThrownBy(() -> fixtures.start(spec, listener))
                .isInstanceOfSatisfying(ProcessBoundaryException.class, e -> {
                    assertThat(e.error()).isInstanceOf(ProcessBoundaryError.SpawnFailed.class);
                    assertThat(e.error().message()).contains("fixture.py, valid_line").contains(missing.toString());
                });
        assertThat(fixtures.pids()).isEmpty();
    }

    @Test
    @Timeout(60)
    void theWorkdirIsUsed() throws Exception {
        ProcessSpec spec = ProcessSpec.builder("pwd").command("/bin/sh", "-c", "echo $$ >> \"$FIXTURE_PID_FILE\"; pwd")
                .env("FIXTURE_PID_FILE", fixtures.pidFile().toString())
                .workdir(tmp)
                .build();
        fixtures.start(spec, listener).exitFuture().join();
        assertThat(listener.lines).containsExactly(tmp.toRealPath().toString());
    }

    @Test
    @Timeout(60)
    void inheritsTheHostEnvironmentAndSpecEnvWins() throws Exception {
        String hostPath = System.getenv("PATH");
        assertThat(hostPath).isNotNull();
        ProcessSpec spec = fixtures.spec("env", "env", "PATH", "HOME", "MODULE_FLAG", ProcessSpec.TOKEN_ENV)
                .env("MODULE_FLAG", "on")
                .env("HOME", "/overridden")
                .build();
        fixtures.start(spec, listener).exitFuture().join();
        Map<String, String> env = parseFlatJson(listener.lines.get(0));
        assertThat(env).containsEntry("PATH", hostPath)
                .containsEntry("HOME", "/overridden")
                .containsEntry("MODULE_FLAG", "on");
        assertThat(env.get(ProcessSpec.TOKEN_ENV)).matches("[0-9a-f-]{36}");
    }

    @Test
    @Timeout(60)
    void withoutInheritanceOnlyPassThroughNamesAndSpecEnvAreVisible() throws Exception {
        String hostPath = System.getenv("PATH");
        assertThat(hostPath).isNotNull();
        ProcessSpec spec = fixtures.spec("allow", "env", "PATH", "HOME", "MODULE_FLAG", "FIXTURE_PID_FILE")
                .env("MODULE_FLAG", "on")
                .inheritEnv(false)
                .passThroughEnv(Set.of("PATH", "META_TEST_UNSET_VARIABLE"))
                .build();
        fixtures.start(spec, listener).exitFuture().join();
        Map<String, String> env = parseFlatJson(listener.lines.get(0));
        assertThat(env).containsEntry("PATH", hostPath)
                .containsEntry("HOME", null)
                .containsEntry("MODULE_FLAG", "on")
                .containsEntry("FIXTURE_PID_FILE", fixtures.pidFile().toString());
    }

    /** Parses {"k": "v" | null, ...} as written by env.py (values without quotes or backslashes). */
    private static Map<String, String> parseFlatJson(String json) {
        String body = json.strip();
        assertThat(body).startsWith("{").endsWith("}");
        Map<String, String> map = new java.util.HashMap<>();
        for (String pair : body.substring(1, body.length() - 1).split(", ")) {
            int colon = pair.indexOf("\": ");
            String key = pair.substring(1, colon);
            String value = pair.substring(colon + 3);
            map.put(key, value.equals("null") ? null : value.substring(1, value.length() - 1));
        }
        return map;
    }
}
