package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.FixtureScripts;

/** A host JVM that exits without closing its runtime still stops the runtime's children (the shutdown hook). */
@Timeout(60)
class ShutdownHookTest {

    /** The host: starts a runtime with a module that would run for a minute, then exits without closing it. */
    public static final class Host {
        public static void main(String[] args) {
            MetaConfig config = MetaConfig.builder()
                    .module(ModuleConfig.builder("stay").command(args[0], args[1], "stay")
                            .env("FIXTURE_PIDFILE", args[2]).env("FIXTURE_MODE", "stay").build())
                    .discover("stay").build();
            UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(RuntimeOptions.builder()
                    .stopStdinGrace(Duration.ofMillis(200)).stopTermGrace(Duration.ofMillis(500)).build()).start();
            System.out.println("loaded " + runtime.loadedModules());
            System.exit(0);
        }
    }

    @TempDir
    Path dir;

    @Test
    void exitingHostStopsTheChildren() throws Exception {
        Path pidfile = dir.resolve("pids");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process host = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Host.class.getName(),
                Fixtures.python(), FixtureScripts.eventLineModule().toString(), pidfile.toString())
                .redirectErrorStream(true).start();
        String output = new String(host.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(host.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(output).contains("loaded [stay]");
        assertThat(host.exitValue()).as(output).isZero();
        List<Long> pids = Fixtures.pids(pidfile);
        assertThat(pids).hasSize(1);
        Fixtures.assertAllGone(pidfile);
    }
}
