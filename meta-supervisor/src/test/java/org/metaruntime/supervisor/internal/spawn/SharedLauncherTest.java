package org.metaruntime.supervisor.internal.spawn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.ProcessLauncher;
import org.metaruntime.testing.ProcessLeaks;

/** When children go through the launcher, and that an idle launcher ends by itself. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharedLauncherTest {

    private final String mode = System.getProperty(SharedLauncher.MODE_PROPERTY);

    @AfterEach
    void restoreModeAndCheckNothingIsLeft() {
        if (mode == null) {
            System.clearProperty(SharedLauncher.MODE_PROPERTY);
        } else {
            System.setProperty(SharedLauncher.MODE_PROPERTY, mode);
        }
        ProcessLeaks.assertNoChildProcess();
        ProcessLeaks.assertNoThreadNamed("meta-supervisor-launcher");
    }

    @Test
    void aForcedSpawnGoesThroughTheLauncherWhichEndsOnceIdle() throws Exception {
        System.setProperty(SharedLauncher.MODE_PROPERTY, "launcher");
        ProcessSpec spec = ProcessSpec.builder("through").command("sh", "-c", "read -r _; echo \"$META_RUNTIME_TEST\"")
                .env("META_RUNTIME_TEST", "it went through").build();

        Process child = ProcessLauncher.launch(spec).process();
        long launcher = SharedLauncher.pid().orElseThrow();
        assertThat(child.toHandle().parent().map(ProcessHandle::pid)).contains(launcher);
        child.getOutputStream().close();
        assertThat(new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("it went through\n");
        child.getErrorStream().close();
        child.getInputStream().close();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();

        ProcessLeaks.assertDead(ProcessHandle.of(launcher).orElseThrow());
        assertThat(SharedLauncher.pid()).isEmpty();
    }

    @Test
    void directModeNeverUsesTheLauncherAndAutoCountsTheJvmsDescriptors() throws Exception {
        System.setProperty(SharedLauncher.MODE_PROPERTY, "direct");
        assertThat(SharedLauncher.wanted()).isFalse();
        assertThat(SharedLauncher.forced()).isFalse();

        int before = SharedLauncher.countDescriptors();
        List<FileInputStream> open = new ArrayList<>();
        try {
            for (int i = 0; i < SharedLauncher.AUTO_DESCRIPTORS; i++) {
                open.add(new FileInputStream("/dev/null"));
            }
            // Other threads (an idle launcher's pipes closing, say) may close a few of theirs meanwhile.
            assertThat(SharedLauncher.countDescriptors())
                    .isGreaterThanOrEqualTo(before + SharedLauncher.AUTO_DESCRIPTORS - 16);
        } finally {
            for (FileInputStream in : open) {
                in.close();
            }
        }
    }
}
