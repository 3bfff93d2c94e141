package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaruntime.core.internal.Environments;

class EnvironmentsTest {

    private final ModuleConfig module = ModuleConfig.builder("m").command("x")
            .env(Map.of("SHARED", "module", "MODULE_ONLY", "1")).build();
    private final PreSpawnData preSpawn = new PreSpawnData("m", List.of(
            Map.entry("SHARED", "prespawn-1"), Map.entry("SHARED", "prespawn-2"), Map.entry("PRE", "p")));
    private final Map<String, String> host = Map.of("SHARED", "host", "HOST_ONLY", "h", "SECRET", "s");

    @Test
    void laterSourceWins() {
        Map<String, String> env = Environments.effective(host, true, Set.of(), Map.of(), module, Optional.of(preSpawn));
        assertThat(env).containsEntry("SHARED", "prespawn-2").containsEntry("HOST_ONLY", "h")
                .containsEntry("MODULE_ONLY", "1").containsEntry("PRE", "p").containsEntry("SECRET", "s");
        Map<String, String> noPreSpawn = Environments.effective(host, true, Set.of(), Map.of(), module, Optional.empty());
        assertThat(noPreSpawn).containsEntry("SHARED", "module");
    }

    @Test
    void runtimeVariablesSitBetweenTheHostAndTheModule() {
        Map<String, String> env = Environments.effective(host, false, Set.of("HOST_ONLY"),
                Map.of("SHARED", "runtime", "HOST_ONLY", "runtime", "RUN", "r"), module, Optional.empty());
        assertThat(env).containsEntry("SHARED", "module").containsEntry("HOST_ONLY", "runtime").containsEntry("RUN", "r");
    }

    @Test
    void processOptionsRefuseABadVariable() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProcessOptions.builder().env(Map.of("A=B", "x")).build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("process.env");
        assertThat(ProcessOptions.builder().env(Map.of("A", "1")).build().env()).containsExactly(Map.entry("A", "1"));
    }

    @Test
    void allowListKeepsOnlyPassThroughNames() {
        Map<String, String> env = Environments.effective(host, false, Set.of("HOST_ONLY", "ABSENT"), Map.of(), module,
                Optional.of(preSpawn));
        assertThat(env).doesNotContainKey("SECRET").doesNotContainKey("ABSENT")
                .containsEntry("HOST_ONLY", "h").containsEntry("SHARED", "prespawn-2");
    }
}
