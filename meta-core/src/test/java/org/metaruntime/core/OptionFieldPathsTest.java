package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.metaruntime.eventlog.EventLogOptions;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.SupervisionOptions;

/**
 * Every options group refuses a bad value with the one {@link InvalidOptionException}, whose {@code field()} is the
 * path of the field from the options the caller built, and whose message carries that path.
 */
class OptionFieldPathsTest {

    /** The refusal {@code refused} throws, checked to carry {@code path} in its accessor and its message. */
    private static InvalidOptionException refusedAt(String path, ThrowingCallable refused) {
        Throwable thrown = catchThrowable(refused);
        assertThat(thrown).isInstanceOf(InvalidOptionException.class).isInstanceOf(IllegalArgumentException.class);
        InvalidOptionException e = (InvalidOptionException) thrown;
        assertThat(e.field()).isEqualTo(path);
        assertThat(e.getMessage()).isEqualTo("invalid configuration at " + path + ": " + e.problem());
        return e;
    }

    @Test
    void aGroupBuiltOnItsOwnNamesItsOwnField() {
        refusedAt("maxRestarts", () -> SupervisionOptions.builder().maxRestarts(-1));
        refusedAt("maxBackoff", () -> SupervisionOptions.builder().initialBackoff(Duration.ofSeconds(2))
                .maxBackoff(Duration.ofSeconds(1)).build());
        refusedAt("termGrace", () -> new StopLadder(Duration.ZERO, Duration.ofMillis(-1), Duration.ZERO));
        refusedAt("maxInFlight", () -> McpClientOptions.builder().maxInFlight(0));
        refusedAt("maxQueued", () -> McpClientOptions.builder().maxQueued(-1));
        refusedAt("requestHandlers", () -> McpClientOptions.builder().requestHandler("ping", (id, params) -> null));
        refusedAt("timeout", () -> CallOptions.builder().timeout(Duration.ZERO));
        assertThat(refusedAt("timeout", () -> CallOptions.effective(Duration.ofSeconds(-1))).problem())
                .isEqualTo("must be positive, got PT-1S");
    }

    @Test
    void theProcessTheCallAndTheEventLogGroupsNameTheirFieldsToo() {
        refusedAt("moduleId", () -> ProcessSpec.builder(" ").command("python3").build());
        refusedAt("command", () -> ProcessSpec.builder("weather").build());
        refusedAt("env", () -> ProcessSpec.builder("weather").command("python3").env("A=B", "x").build());
        refusedAt("env", () -> ProcessSpec.builder("weather").command("python3").env(ProcessSpec.TOKEN_ENV, "x")
                .build());
        refusedAt("passThroughEnv", () -> ProcessSpec.builder("weather").command("python3").passThroughEnv(Set.of(""))
                .build());
        refusedAt("maxLineBytes", () -> ProcessSpec.builder("weather").command("python3").maxLineBytes(0).build());
        refusedAt("stderrTailBytes", () -> ProcessSpec.builder("weather").command("python3").stderrTailBytes(-1)
                .build());
        refusedAt("stdinQueueBytes", () -> ProcessSpec.builder("weather").command("python3").stdinQueueBytes(0)
                .build());
        refusedAt("exitDrainTimeout", () -> ProcessSpec.builder("weather").command("python3")
                .exitDrainTimeout(Duration.ofMillis(-1)).build());

        refusedAt("timeout", () -> McpCallOptions.builder(Duration.ZERO));
        refusedAt("timeout", () -> McpCallOptions.of(Duration.ofSeconds(1)).toBuilder().timeout(Duration.ofMillis(-1)));

        refusedAt("instanceId", () -> EventLogOptions.builder().instanceId(" ").build());
        refusedAt("queueCapacity", () -> EventLogOptions.builder().queueCapacity(0).build());
        refusedAt("maxBatch", () -> EventLogOptions.builder().maxBatch(0).build());
        refusedAt("retentionMaxAge", () -> EventLogOptions.builder().retentionMaxAge(Duration.ofSeconds(-1)).build());
        refusedAt("retentionMaxRows", () -> EventLogOptions.builder().retentionMaxRows(-1).build());
        refusedAt("retentionInterval", () -> EventLogOptions.builder().retentionInterval(Duration.ZERO).build());
        refusedAt("tailPollInterval", () -> EventLogOptions.builder().tailPollInterval(Duration.ofNanos(1)).build());
        refusedAt("closeTimeout", () -> EventLogOptions.builder().closeTimeout(Duration.ofMillis(-1)).build());
    }

    @Test
    void aGroupSetOnTheRuntimeIsRefusedAtItsPathThere() {
        InvalidOptionException e = refusedAt("supervision.maxBackoff", () -> RuntimeOptions.builder()
                .supervisionBackoff(Duration.ofSeconds(2)).supervisionBackoffMax(Duration.ofSeconds(1)).build());
        assertThat(e).isInstanceOf(ConfigException.class);
        assertThat(e.problem()).contains("initialBackoff");
        assertThat(refusedAt("maxRestarts", () -> RuntimeOptions.builder().maxRestarts(-1)).problem())
                .isEqualTo("the value must not be negative, got -1");
        refusedAt("supervisionMultiplier", () -> RuntimeOptions.builder().supervisionMultiplier(0.5));
        refusedAt("startupTimeout", () -> RuntimeOptions.builder().startupTimeout(Duration.ZERO));
        refusedAt("process.env", () -> RuntimeOptions.builder().processEnv(Map.of("A=B", "x")));
        refusedAt("stopKillWait", () -> RuntimeOptions.builder().stopKillWait(Duration.ofMillis(-1)));
    }

    @Test
    void aModuleOptionIsRefusedUnderItsModule() {
        refusedAt("modules[weather].startupTimeout",
                () -> ModuleConfig.builder("weather").startupTimeout(Duration.ZERO));
        refusedAt("modules[weather].maxInFlightCalls", () -> ModuleConfig.builder("weather").maxInFlightCalls(0));
        refusedAt("modules[weather].url", () -> ModuleConfig.builder("weather").url(URI.create("ftp://host/x")));
        refusedAt("modules[weather].bare", () -> ModuleConfig.builder("weather").bare(List.of()));
        refusedAt("modules[weather].idleTimeout", () -> ModuleConfig.builder("weather").command("python3", "w.py")
                .idleTimeout(Duration.ofSeconds(1)).build());
        refusedAt("modules[weather].headers", () -> ModuleConfig.builder("weather").command("python3", "w.py")
                .header("X-Token", "t").build());
    }

    @Test
    void aConfigurationIsRefusedAtTheIndexOfItsEntry() {
        ModuleConfig a = ModuleConfig.builder("a").command("python3", "a.py").build();
        ModuleConfig empty = ModuleConfig.builder("b").build();
        refusedAt("modules[1].command", () -> MetaConfig.builder().module(a).module(empty).build().validate());
        refusedAt("modules[1].id", () -> MetaConfig.builder().module(a).module(a).build().validate());
        refusedAt("discovery.modules[1]", () -> MetaConfig.builder().module(a).discover("a", "ghost").build()
                .validate());
    }

    @Test
    void aPathUnderAGroupJoinsFieldsWithADotAndIndexesWithout() {
        assertThat(InvalidOptionException.path("supervision", "maxRestarts")).isEqualTo("supervision.maxRestarts");
        assertThat(InvalidOptionException.path("modules", "[2].restartPolicy")).isEqualTo("modules[2].restartPolicy");
    }

    @Test
    void everyGroupHasABuilderFromItsDefaultsAndBackWhoseBuildValidates() {
        StartupOptions startup = StartupOptions.builder().timeout(Duration.ofSeconds(5)).parallelism(2).build();
        StartupOptions d = StartupOptions.defaults();
        assertThat(startup).isEqualTo(new StartupOptions(d.onFailureRetryBudget(), d.alwaysRestartBudget(),
                d.restartBackoff(), Duration.ofSeconds(5), 2));
        assertThat(startup.toBuilder().build()).isEqualTo(startup);
        refusedAt("startupParallelism", () -> StartupOptions.builder().parallelism(0).build());

        ProcessOptions process = ProcessOptions.builder().inheritEnv(false).env(Map.of("RUN", "1")).build();
        ProcessOptions p = ProcessOptions.defaults();
        assertThat(process).isEqualTo(new ProcessOptions(false, p.passThroughEnv(), Map.of("RUN", "1"), p.maxLineBytes(),
                p.stderrTailBytes(), p.stdinQueueBytes()));
        assertThat(process.toBuilder().build()).isEqualTo(process);
        refusedAt("maxLineBytes", () -> ProcessOptions.builder().maxLineBytes(0).build());

        EventOptions events = EventOptions.builder().retention(10).build();
        assertThat(events).isEqualTo(new EventOptions(10, EventOptions.defaults().dropBatch()));
        assertThat(events.toBuilder().build()).isEqualTo(events);
        refusedAt("eventDropBatch", () -> EventOptions.builder().dropBatch(0).build());

        CallOptions call = CallOptions.builder().timeout(Duration.ofSeconds(3)).resetTimeoutOnProgress(true).build();
        assertThat(call.toBuilder().build().toString()).isEqualTo(call.toString());
        assertThat(RuntimeOptions.defaults().toBuilder().build().toString()).isEqualTo(RuntimeOptions.defaults().toString());
        assertThat(SupervisionOptions.defaults().toBuilder().build()).isEqualTo(SupervisionOptions.defaults());
    }
}
