package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.test.MetaRuntimeTest;
import org.metaruntime.test.ModuleSource;
import org.metaruntime.testing.Tools;

/**
 * Three bundles that fail (a bad binary, one that crashes at start, one that hangs) beside the bundles that
 * work: each failing one is named with its exit code and stderr tail in its warning, its transitions and the
 * errors of calls to it, the others serve, and startup does not fail; no process outlives the runtime
 * ({@link MetaRuntimeTest}).
 */
@MetaRuntimeTest
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FailingBundlesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> WORKING = List.of("python", "typescript", "java", "go", "rust", "c");

    @TempDir
    Path dir;

    /** The three failing bundles (the bad binary written into the test's folder), then the working ones. */
    @ModuleSource
    MetaConfig bundles() throws Exception {
        Path badBinary = dir.resolve("bad-binary");
        Files.write(badBinary, new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 0, 0, 1, 2, 3});
        Files.setPosixFilePermissions(badBinary, PosixFilePermissions.fromString("rwxr-xr-x"));
        String sh = Tools.required("sh");
        MetaConfig.Builder config = MetaConfig.builder()
                .module(ModuleConfig.builder("bad-binary").command(badBinary.toString()).workdir(dir)
                        .startupTimeout(Duration.ofSeconds(20)).build())
                .module(ModuleConfig.builder("crasher").command(sh, "-c", "echo 'fatal: no config file' >&2; exit 9")
                        .workdir(dir).startupTimeout(Duration.ofSeconds(20)).build())
                .module(ModuleConfig.builder("hanger").command(sh, "-c", "echo 'waiting for a lock' >&2; exec sleep 600")
                        .workdir(dir).startupTimeout(Duration.ofSeconds(3)).build());
        List<String> ids = new ArrayList<>(List.of("bad-binary", "crasher", "hanger"));
        for (String id : ids) {
            config.preSpawn(BundlesTest.mcp(id));
        }
        for (String id : WORKING) {
            config.module(BundlesTest.config(Bundles.get(id))).preSpawn(BundlesTest.mcp(id));
            ids.add(id);
        }
        return config.discover(ids.toArray(String[]::new)).build();
    }

    @Test
    void eachFailingBundleIsNamedAndTheOthersServe(UnifiedRuntime runtime) throws Exception {
        assertThat(runtime.loadedModules()).containsExactlyInAnyOrderElementsOf(WORKING);
        for (String id : WORKING) {
            Bundles.Bundle bundle = Bundles.get(id);
            JsonNode payload = runtime.routeModuleCall(new ModuleRouteRequest(id, bundle.tool(),
                    JSON.readTree(bundle.arguments()))).payload();
            assertThat(payload.asText()).as(id).contains(bundle.expected());
        }

        Map<String, JsonNode> warnings = runtime.mergedEvents().stream()
                .map(EventEnvelope::event)
                .filter(e -> e instanceof UnifiedEvent.Module)
                .map(e -> ((UnifiedEvent.Module) e).event())
                .filter(e -> e.eventType().equals("supervisor.warning"))
                .collect(Collectors.toMap(e -> e.module(), e -> e.payload(), (a, b) -> a));
        assertThat(warnings).containsOnlyKeys("bad-binary", "crasher", "hanger");
        assertThat(warnings.get("crasher").get("exit_code").asInt()).isEqualTo(9);
        assertThat(warnings.get("crasher").get("stderr_tail").asText()).contains("fatal: no config file");
        assertThat(warnings.get("hanger").get("stderr_tail").asText()).contains("waiting for a lock");
        assertThat(warnings.get("bad-binary").get("error").asText()).contains("bad-binary");
        for (String failing : List.of("bad-binary", "crasher", "hanger")) {
            assertThat(warnings.get(failing).get("error").asText()).as(failing).contains(failing);
            assertThat(transitions(runtime.moduleHealthTransitions(), failing)).as(failing)
                    .containsExactly("null->Starting", "Starting->Failed", "Failed->Stopped");
            assertThatThrownBy(() -> runtime.routeModuleCall(new ModuleRouteRequest(failing, "hello",
                    JSON.createObjectNode())))
                    .isInstanceOfSatisfying(ModuleRouteException.class, e -> {
                        assertThat(e.error()).isInstanceOf(ModuleRouteError.UnloadedModule.class);
                        ModuleRouteError.UnloadedModule unloaded = (ModuleRouteError.UnloadedModule) e.error();
                        assertThat(unloaded.moduleId()).isEqualTo(failing);
                        assertThat(unloaded.startupError()).isNotNull();
                        assertThat(e.getMessage()).contains(failing);
                    });
        }
        assertThatThrownBy(() -> runtime.routeModuleCall(new ModuleRouteRequest("crasher", "hello",
                JSON.createObjectNode()))).hasMessageContaining("9").hasMessageContaining("fatal: no config file");
        assertThatThrownBy(() -> runtime.routeModuleCall(new ModuleRouteRequest("hanger", "hello",
                JSON.createObjectNode()))).hasMessageContaining("waiting for a lock");
        assertThat(runtime.shutdown().orphanProcesses()).isZero();
    }

    private static List<String> transitions(List<ModuleHealthTransition> all, String id) {
        return all.stream().filter(t -> t.moduleId().equals(id))
                .map(t -> name(t.from()) + "->" + name(t.to())).toList();
    }

    private static String name(ModuleHealthState state) {
        return state == null ? "null" : state.jsonName();
    }
}
