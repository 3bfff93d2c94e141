package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProcessSpecTest {

    @Test
    void builderHasTheDocumentedDefaults() {
        ProcessSpec spec = ProcessSpec.builder("m").command("tool", "--flag").build();
        assertThat(spec.moduleId()).isEqualTo("m");
        assertThat(spec.command()).containsExactly("tool", "--flag");
        assertThat(spec.workdir()).isNull();
        assertThat(spec.env()).isEmpty();
        assertThat(spec.inheritEnv()).isTrue();
        assertThat(spec.passThroughEnv()).isEmpty();
        assertThat(spec.maxLineBytes()).isEqualTo(16 * 1024 * 1024);
        assertThat(spec.stderrTailBytes()).isEqualTo(64 * 1024);
        assertThat(spec.stdinQueueBytes()).isEqualTo(16 * 1024 * 1024);
        assertThat(spec.exitDrainTimeout()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void laterEnvCallsWin() {
        ProcessSpec spec = ProcessSpec.builder("m").command("tool")
                .env(Map.of("A", "1", "B", "2"))
                .env("A", "3")
                .env(Map.of("B", "4"))
                .build();
        assertThat(spec.env()).isEqualTo(Map.of("A", "3", "B", "4"));
    }

    @Test
    void copiesCollections() {
        List<String> command = new ArrayList<>(List.of("tool"));
        ProcessSpec spec = ProcessSpec.builder("m").command(command).workdir(Path.of("/tmp"))
                .passThroughEnv(Set.of("PATH")).inheritEnv(false).build();
        command.add("changed");
        assertThat(spec.command()).containsExactly("tool");
        assertThatThrownBy(() -> spec.command().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(spec.passThroughEnv()).containsExactly("PATH");
    }

    @Test
    void rejectsInvalidValues() {
        assertThatThrownBy(() -> ProcessSpec.builder(" ").command("tool").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("moduleId");
        assertThatThrownBy(() -> ProcessSpec.builder("m").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("command");
        assertThatThrownBy(() -> ProcessSpec.builder("m").command("tool").env("A=B", "x").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("A=B");
        assertThatThrownBy(() -> ProcessSpec.builder("m").command("tool").env(ProcessSpec.TOKEN_ENV, "x").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(ProcessSpec.TOKEN_ENV);
        assertThatThrownBy(() -> ProcessSpec.builder("m").command("tool").maxLineBytes(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxLineBytes");
        assertThatThrownBy(() -> ProcessSpec.builder("m").command("tool").stderrTailBytes(-1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stderrTailBytes");
        assertThatThrownBy(() -> ProcessSpec.builder("m").command("tool").stdinQueueBytes(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stdinQueueBytes");
        assertThatThrownBy(() -> ProcessSpec.builder("m").command("tool")
                .exitDrainTimeout(Duration.ofMillis(-1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exitDrainTimeout");
        assertThatThrownBy(() -> ProcessSpec.builder("m").command((String) null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void stopLadderValidatesAndSums() {
        assertThat(StopLadder.defaults().total()).isEqualTo(Duration.ofSeconds(6));
        assertThat(StopLadder.immediate().total()).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> new StopLadder(Duration.ofSeconds(-1), Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stdinGrace");
        assertThatThrownBy(() -> new StopLadder(Duration.ZERO, null, Duration.ZERO))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("termGrace");
    }
}
