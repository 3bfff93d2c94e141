package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpClientRequestHandler;
import org.metaruntime.mcp.McpRoot;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.SupervisionOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaruntime.mcp.McpSessionMode;
import org.metaruntime.supervisor.RestartPolicy;

class ConfigTest {

    private static ModuleConfig module(String id) {
        return ModuleConfig.builder(id).command("python3", id + ".py").build();
    }

    @Test
    void moduleConfigDefaultsAndCopies() {
        List<String> argv = new java.util.ArrayList<>(List.of("python3", "m.py"));
        ModuleConfig config = ModuleConfig.builder("m").command(argv).workdir(Path.of("/tmp"))
                .env(Map.of("A", "1")).env("B", "2").build();
        argv.add("mutated");
        assertThat(config.command()).containsExactly("python3", "m.py");
        assertThat(config.restartPolicy()).isEqualTo(RestartPolicy.ON_FAILURE);
        assertThat(config.mcpSessionMode()).isEqualTo(McpSessionMode.PERSISTENT);
        assertThat(config.env()).containsExactly(Map.entry("A", "1"), Map.entry("B", "2"));
        assertThat(config.startupTimeout()).isEmpty();
        assertThat(config.toBuilder().build()).isEqualTo(config);
        assertThatThrownBy(() -> config.env().put("C", "3")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void moduleConfigRejectsBadDurationsNamingTheField() {
        assertThatThrownBy(() -> ModuleConfig.builder("m").startupTimeout(Duration.ZERO))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("modules[m].startupTimeout"));
        assertThatThrownBy(() -> ModuleConfig.builder("m").shutdownGrace(Duration.ofSeconds(-1)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("shutdownGrace");
        assertThatThrownBy(() -> ModuleConfig.builder("m").maxInFlightCalls(0))
                .isInstanceOf(ConfigException.class).hasMessageContaining("maxInFlightCalls");
    }

    @Test
    void validConfigPasses() {
        MetaConfig config = MetaConfig.builder().module(module("a")).module(module("b"))
                .discover("b", "a").preSpawn(PreSpawnData.mcp("a")).build();
        assertThat(config.validate()).isSameAs(config);
        assertThat(config.discovery()).isEqualTo(new DiscoverySpec("default", List.of("b", "a")));
        assertThat(config.module("a")).isPresent();
        assertThat(config.isDiscovered("a")).isTrue();
    }

    @Test
    void duplicateIdIsRefused() {
        MetaConfig config = MetaConfig.builder().module(module("a")).module(module("a")).build();
        assertThatThrownBy(config::validate).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("modules[1].id"))
                .hasMessageContaining("'a'");
    }

    @Test
    void emptyCommandIsRefused() {
        MetaConfig config = MetaConfig.builder().module(ModuleConfig.builder("a").build()).build();
        assertThatThrownBy(config::validate).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("modules[0].command"));
        MetaConfig blank = MetaConfig.builder().module(ModuleConfig.builder("a").command(" ").build()).build();
        assertThatThrownBy(blank::validate).isInstanceOf(ConfigException.class).hasMessageContaining("command[0]");
    }

    @Test
    void blankIdIsRefused() {
        MetaConfig config = MetaConfig.builder().module(module(" ")).build();
        assertThatThrownBy(config::validate).isInstanceOf(ConfigException.class).hasMessageContaining("modules[0].id");
    }

    @Test
    void discoveredButNotConfiguredCarriesTheResolutionError() {
        MetaConfig config = MetaConfig.builder().module(module("a")).discover("a", "ghost").build();
        assertThatThrownBy(config::validate).isInstanceOf(ConfigException.class)
                .satisfies(e -> {
                    ConfigException ce = (ConfigException) e;
                    assertThat(ce.field()).isEqualTo("discovery.modules[1]");
                    assertThat(ce.resolutionError()).contains(new ConfigResolutionError.ModuleNotConfigured("ghost"));
                });
    }

    @Test
    void discoveredTwiceIsRefused() {
        MetaConfig config = MetaConfig.builder().module(module("a")).discover("a", "a").build();
        assertThatThrownBy(config::validate).isInstanceOf(ConfigException.class)
                .hasMessageContaining("discovery.modules[1]");
    }

    @Test
    void preSpawnForUnknownModuleIsRefused() {
        MetaConfig config = MetaConfig.builder().module(module("a")).preSpawn(PreSpawnData.mcp("b")).build();
        assertThatThrownBy(config::validate).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("preSpawn[0].moduleId"));
    }

    @Test
    void boundaryMarkerIsTrimmedAndCaseInsensitive() {
        for (String value : List.of("mcp", " MCP ", "Mcp\t")) {
            PreSpawnData data = new PreSpawnData("a", List.of(Map.entry("META_MODULE_BOUNDARY", value)));
            assertThat(data.selectsMcp()).as(value).isTrue();
        }
        for (String value : List.of("mcpx", "", "event-line")) {
            PreSpawnData data = new PreSpawnData("a", List.of(Map.entry("META_MODULE_BOUNDARY", value)));
            assertThat(data.selectsMcp()).as(value).isFalse();
        }
        PreSpawnData lowerKey = new PreSpawnData("a", List.of(Map.entry("meta_module_boundary", "mcp")));
        assertThat(lowerKey.selectsMcp()).isFalse();
    }

    @Test
    void onlyTheFirstMatchingEntryCounts() {
        PreSpawnData firstWins = new PreSpawnData("a", List.of(Map.entry("META_MODULE_BOUNDARY", "none"),
                Map.entry("META_MODULE_BOUNDARY", "mcp")));
        assertThat(firstWins.selectsMcp()).isFalse();
        MetaConfig config = MetaConfig.builder().module(module("a"))
                .preSpawn(PreSpawnData.of("a", Map.of("X", "1"))).preSpawn(PreSpawnData.mcp("a")).build();
        assertThat(config.boundaryOf("a")).isEqualTo(ModuleBoundaryKind.EVENT_LINE);
        assertThat(config.preSpawnFor("a").orElseThrow().env()).containsExactly(Map.entry("X", "1"));
    }

    @Test
    void moduleEnvDoesNotSelectTheBoundaryAndCoreDoesNotMatter() {
        ModuleConfig router = ModuleConfig.builder("router").command("x").env("META_MODULE_BOUNDARY", "mcp").build();
        MetaConfig config = MetaConfig.builder().module(router).module(module("tool"))
                .preSpawn(PreSpawnData.mcp("tool")).build();
        assertThat(config.boundaryOf("router")).isEqualTo(ModuleBoundaryKind.EVENT_LINE);
        assertThat(config.boundaryOf("tool")).isEqualTo(ModuleBoundaryKind.MCP);
        assertThat(RuntimeOptions.defaults().isCore("router")).isTrue();
        assertThat(RuntimeOptions.defaults().isCore("tool")).isFalse();
    }

    @Test
    void preSpawnDataCopiesItsEntries() {
        Map<String, String> source = new LinkedHashMap<>();
        source.put("K", "v1");
        PreSpawnData data = PreSpawnData.of("a", source);
        source.put("K", "v2");
        assertThat(data.env()).containsExactly(Map.entry("K", "v1"));
        assertThat(data.firstValue("K")).contains("v1");
    }

    @Test
    void runtimeOptionsDefaults() {
        RuntimeOptions options = RuntimeOptions.defaults();
        assertThat(options.startup()).isEqualTo(new StartupOptions(1, 1, Duration.ZERO, Duration.ofSeconds(30), 4));
        assertThat(options.coreModuleIds()).containsExactlyInAnyOrder("router", "delivery", "memory");
        assertThat(options.events()).isEqualTo(new EventOptions(4096, 1024));
        assertThat(options.process().inheritEnv()).isTrue();
        assertThat(options.supervision().maxRestarts()).isEqualTo(5);
        assertThat(options.supervision().restartWindow()).isEqualTo(Duration.ofSeconds(60));
        assertThat(options.supervision().initialBackoff()).isEqualTo(Duration.ofMillis(500));
        assertThat(options.process().maxLineBytes()).isEqualTo(16 * 1024 * 1024);
        assertThat(options.eventLine().exitGrace()).isEmpty();
        assertThat(options.stopLadder()).isEqualTo(StopLadder.defaults());
        ModuleConfig custom = ModuleConfig.builder("m").command("x").startupTimeout(Duration.ofSeconds(3)).build();
        assertThat(options.startupTimeoutFor(custom)).isEqualTo(Duration.ofSeconds(3));
        assertThat(options.startupTimeoutFor(module("n"))).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void runtimeOptionsRejectNegativeBudgetsAndBadDurations() {
        assertThatThrownBy(() -> RuntimeOptions.builder().onFailureRetryBudget(-1))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("onFailureRetryBudget"));
        assertThatThrownBy(() -> RuntimeOptions.builder().alwaysRestartBudget(-1)).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> RuntimeOptions.builder().restartBackoff(Duration.ofMillis(-1)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("restartBackoff");
        assertThatThrownBy(() -> RuntimeOptions.builder().startupTimeout(Duration.ZERO))
                .isInstanceOf(ConfigException.class).hasMessageContaining("startupTimeout");
        assertThatThrownBy(() -> RuntimeOptions.builder().eventRetention(0)).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> RuntimeOptions.builder().supervisionJitter(1.5)).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> RuntimeOptions.builder().supervisionBackoff(Duration.ofSeconds(10))
                .supervisionBackoffMax(Duration.ofSeconds(1)).build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("maxBackoff")
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("supervision.maxBackoff"));
        RuntimeOptions zeroBudgets = RuntimeOptions.builder().onFailureRetryBudget(0).alwaysRestartBudget(0)
                .coreModuleIds(Set.of()).build();
        assertThat(zeroBudgets.startup().onFailureRetryBudget()).isZero();
        assertThat(zeroBudgets.isCore("router")).isFalse();
        assertThat(zeroBudgets.toBuilder().build().toString()).isEqualTo(zeroBudgets.toString());
    }

    @Test
    void aSupervisionMultiplierBelowOneIsRefusedWhereItIsSet() {
        assertThatThrownBy(() -> RuntimeOptions.builder().supervisionMultiplier(0.5))
                .isInstanceOf(ConfigException.class).hasMessageContaining("multiplier")
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("supervisionMultiplier"));
        assertThat(RuntimeOptions.builder().supervisionMultiplier(1.5).build().supervision().multiplier()).isEqualTo(1.5);
        // The group built on its own comes from meta-supervisor, which does not know meta-core: its builder refuses
        // the value at the setter, with the InvalidOptionException (an IllegalArgumentException) naming the field.
        assertThatThrownBy(() -> SupervisionOptions.builder().multiplier(0.5))
                .isExactlyInstanceOf(InvalidOptionException.class).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid configuration at multiplier: must be a finite number >= 1, got 0.5");
        assertThat(field(() -> SupervisionOptions.builder().jitter(2))).isEqualTo("jitter");
        assertThat(field(() -> SupervisionOptions.builder().maxRestarts(-1))).isEqualTo("maxRestarts");
        assertThatThrownBy(() -> SupervisionOptions.builder().maxRestarts(-1))
                .hasMessage("invalid configuration at maxRestarts: must not be negative, got -1");
        assertThat(field(() -> SupervisionOptions.builder().restartWindow(Duration.ZERO))).isEqualTo("restartWindow");
        assertThat(field(() -> SupervisionOptions.builder().initialBackoff(Duration.ofMillis(-1))))
                .isEqualTo("initialBackoff");
        assertThat(field(() -> SupervisionOptions.builder().maxBackoff(Duration.ofMillis(-1)))).isEqualTo("maxBackoff");
    }

    @Test
    void everyLayersOptionCanBeSetFromTheRuntime() {
        McpClientRequestHandler sampling = (request, context) -> null;
        RuntimeOptions options = RuntimeOptions.builder()
                .supervision(SupervisionOptions.builder().multiplier(3.0).maxRestarts(2).build())
                .mcp(McpClientOptions.builder().root(new McpRoot("file:///srv", "srv")).maxQueued(7)
                        .samplingHandler(sampling).build())
                .maxInFlightCalls(9)
                .process(ProcessOptions.builder().stdinQueueBytes(4096).build())
                .stopLadder(new StopLadder(Duration.ZERO, Duration.ofMillis(10), Duration.ofSeconds(1)))
                .eventLine(EventLineOptions.exitGrace(Duration.ofMillis(50)))
                .build();
        assertThat(options.supervision().multiplier()).isEqualTo(3.0);
        assertThat(options.supervision().maxRestarts()).isEqualTo(2);
        assertThat(options.mcp().roots()).containsExactly(new McpRoot("file:///srv", "srv"));
        assertThat(options.mcp().maxQueued()).isEqualTo(7);
        assertThat(options.mcp().maxInFlight()).isEqualTo(9);
        assertThat(options.mcp().samplingHandler()).containsSame(sampling);
        assertThat(options.process().stdinQueueBytes()).isEqualTo(4096);
        assertThat(options.stopLadder().termGrace()).isEqualTo(Duration.ofMillis(10));
        assertThat(options.eventLine().exitGrace()).contains(Duration.ofMillis(50));
        assertThat(options.toBuilder().build().toString()).isEqualTo(options.toString());
    }

    /** The field path of the {@link InvalidOptionException} {@code refused} throws. */
    static String field(org.assertj.core.api.ThrowableAssert.ThrowingCallable refused) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(refused);
        assertThat(thrown).isInstanceOf(InvalidOptionException.class);
        return ((InvalidOptionException) thrown).field();
    }
}
