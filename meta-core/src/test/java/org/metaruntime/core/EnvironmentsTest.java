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
        Map<String, String> env = Environments.effective(host, true, Set.of(), module, Optional.of(preSpawn));
        assertThat(env).containsEntry("SHARED", "prespawn-2").containsEntry("HOST_ONLY", "h")
                .containsEntry("MODULE_ONLY", "1").containsEntry("PRE", "p").containsEntry("SECRET", "s");
        Map<String, String> noPreSpawn = Environments.effective(host, true, Set.of(), module, Optional.empty());
        assertThat(noPreSpawn).containsEntry("SHARED", "module");
    }

    @Test
    void allowListKeepsOnlyPassThroughNames() {
        Map<String, String> env = Environments.effective(host, false, Set.of("HOST_ONLY", "ABSENT"), module,
                Optional.of(preSpawn));
        assertThat(env).doesNotContainKey("SECRET").doesNotContainKey("ABSENT")
                .containsEntry("HOST_ONLY", "h").containsEntry("SHARED", "prespawn-2");
    }
}
