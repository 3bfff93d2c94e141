package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleError;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.testing.ErrorCodeTable;

class ErrorsTest {

    @Test
    void everyRecordOfTheComposedErrorsHasItsOwnCodeOrWrapsOne() {
        ErrorCodeTable.assertWhole(ModuleRouteError.class, ModuleRouteErrorCodes.BY_RECORD);
        ErrorCodeTable.assertWhole(ConfigResolutionError.class, ConfigResolutionErrorCodes.BY_RECORD);
        assertThat(new ConfigResolutionError.ModuleNotConfigured("x").code()).isEqualTo("config.module_not_configured");
    }

    @Test
    void aWrapperTakesTheCodeAndMessageOfTheErrorItWraps() {
        McpBoundaryError timeout = new McpBoundaryError.Timeout("m", "call_tool:t", 250);
        RuntimeBoundaryError mcp = new RuntimeBoundaryError.Mcp(timeout);
        List<ModuleError> wrappers = List.of(mcp, new ModuleRouteError.ModuleRuntime(mcp),
                new RuntimeFromConfigError.Runtime(mcp));
        for (ModuleError wrapper : wrappers) {
            assertThat(wrapper).isInstanceOf(ModuleError.Wrapper.class);
            assertThat(wrapper.code()).isEqualTo("mcp.timeout");
            assertThat(wrapper.message()).isEqualTo("module 'm' did not complete call_tool:t within 250 ms");
        }
        RuntimeBoundaryError exited = new RuntimeBoundaryError.Process(new ProcessBoundaryError.Exited(2, ""));
        assertThat(exited.code()).isEqualTo("process.exited");
        assertThat(exited.message()).isEqualTo("the process exited with code 2");
        RuntimeFromConfigError config = new RuntimeFromConfigError.Config(
                new ConfigResolutionError.ModuleNotConfigured("x"));
        assertThat(config.code()).isEqualTo("config.module_not_configured");
        assertThat(config.message()).isEqualTo("module 'x' is not configured");
        assertThatThrownBy(() -> new RuntimeBoundaryError.Mcp(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("error");
        assertThatThrownBy(() -> new McpBoundaryError.ToolCallFailed("m", "t", null))
                .isInstanceOf(NullPointerException.class).hasMessage("reason");
        assertThatThrownBy(() -> new McpBoundaryError.ToolCallFailed("m", null, null))
                .isInstanceOf(NullPointerException.class).hasMessage("tool");
    }

    @Test
    void composedPathsCompareByValue() {
        ModuleRouteError error = new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired("router", "router.echo")));
        assertThat(error).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired("router", "router.echo"))));
        ModuleRouteException exception = new ModuleRouteException("router", error);
        assertThat(exception.error()).isSameAs(error);
        assertThat(exception.moduleId()).isEqualTo("router");
        assertThat(exception.getMessage())
                .isEqualTo("call to module 'router' failed: module 'router' is a core module and requires the MCP "
                        + "boundary for flow 'router.echo'");
    }

    @Test
    void everyMessageIsOneSentenceNamingTheModule() {
        List<ModuleRouteError> errors = List.of(
                new ModuleRouteError.UnloadedModule("m"),
                new ModuleRouteError.UnexpectedRouteResponse("m", "module event of 'other'"),
                new ModuleRouteError.ModuleUnavailable("m", ModuleHealthState.RESTARTING),
                new ModuleRouteError.ModuleRuntime(new RuntimeBoundaryError.Process(
                        new ProcessBoundaryError.Exited(3, "boom\n"))),
                new ModuleRouteError.ModuleRuntime(new RuntimeBoundaryError.Process(
                        new ProcessBoundaryError.Timeout(250))));
        for (ModuleRouteError error : errors) {
            String message = new ModuleRouteException("m", error).getMessage();
            assertThat(message).contains("'m'").doesNotContain("\n");
        }
        assertThat(new ModuleRouteException("m", errors.get(3)).getMessage()).contains("code 3").contains("boom");
        assertThat(new ModuleRouteException("m", errors.get(2)).getMessage()).contains("Restarting");
    }

    @Test
    void errorsHaveStableCodesAndAccessors() {
        ModuleRouteException timeout = new ModuleRouteException("m", new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.Timeout("m", "call_tool:t", 5))));
        assertThat(timeout.isTimeout()).isTrue();
        assertThat(timeout.code()).isEqualTo("mcp.timeout");
        assertThat(timeout.mcpError()).contains(new McpBoundaryError.Timeout("m", "call_tool:t", 5));
        assertThat(timeout.processError()).isEmpty();
        ModuleRouteException exited = new ModuleRouteException("m", new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.Exited(3, "boom"))),
                java.util.OptionalInt.of(3), "boom", null);
        assertThat(exited.isTimeout()).isFalse();
        assertThat(exited.code()).isEqualTo("process.exited");
        assertThat(exited.processError()).contains(new ProcessBoundaryError.Exited(3, "boom"));
        assertThat(exited.exitCode()).hasValue(3);
        assertThat(exited.stderrTail()).isEqualTo("boom");
        assertThat(exited).isInstanceOf(org.metaruntime.supervisor.ModuleException.class);
        assertThat(new ModuleRouteException("m", new ModuleRouteError.ModuleRuntime(new RuntimeBoundaryError.Process(
                new ProcessBoundaryError.Timeout(1)))).isTimeout()).isTrue();
        assertThat(new ModuleRouteException("m", new ModuleRouteError.UnloadedModule("m")).code())
                .isEqualTo(ModuleRouteError.UnloadedModule.CODE);
        assertThat(new ModuleRouteError.ModuleUnavailable("m", ModuleHealthState.STOPPED).code())
                .isEqualTo("route.module_unavailable");
        assertThat(new ModuleRouteError.UnexpectedRouteResponse("m", "x").code()).isEqualTo("route.unexpected_response");
        assertThat(new RuntimeBoundaryError.Normalize(new NormalizationError.InvalidJson()).code())
                .isEqualTo("normalize.invalid_json");
        RuntimeFromConfigException notDiscovered = new RuntimeFromConfigException("x",
                new RuntimeFromConfigError.Config(new ConfigResolutionError.ModuleNotDiscovered("x")));
        assertThat(notDiscovered.code()).isEqualTo("config.module_not_discovered");
        assertThat(notDiscovered.isTimeout()).isFalse();
        assertThat(notDiscovered).isInstanceOf(org.metaruntime.supervisor.ModuleException.class);
    }

    @Test
    void runtimeFromConfigErrors() {
        RuntimeFromConfigException notConfigured = new RuntimeFromConfigException("x",
                new RuntimeFromConfigError.Config(new ConfigResolutionError.ModuleNotConfigured("x")));
        assertThat(notConfigured.getMessage()).isEqualTo("running module 'x' failed: module 'x' is not configured");
        RuntimeFromConfigException empty = new RuntimeFromConfigException("x", new RuntimeFromConfigError.Runtime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.EmptyOutput())));
        assertThat(empty.error()).isInstanceOf(RuntimeFromConfigError.Runtime.class);
        assertThat(empty.getMessage()).contains("'x'").contains("without writing a line");
    }

    @Test
    void bothExceptionsShareOneBaseWithTheTypedAccessors() {
        RuntimeBoundaryError timeout = new RuntimeBoundaryError.Mcp(new McpBoundaryError.Timeout("m", "connect", 5));
        List<RuntimeModuleException> both = List.of(
                new ModuleRouteException("m", new ModuleRouteError.ModuleRuntime(timeout)),
                new RuntimeFromConfigException("m", new RuntimeFromConfigError.Runtime(timeout)));
        for (RuntimeModuleException e : both) {
            assertThat(e.code()).isEqualTo("mcp.timeout");
            assertThat(e.isTimeout()).isTrue();
            assertThat(e.boundaryError()).contains(timeout);
            assertThat(e.mcpError()).contains(new McpBoundaryError.Timeout("m", "connect", 5));
            assertThat(e.processError()).isEmpty();
            assertThat(e.getMessage()).endsWith("'m' failed: " + timeout.explained());
        }
        RuntimeFromConfigException spawnFailed = new RuntimeFromConfigException("m", new RuntimeFromConfigError.Runtime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.Exited(2, "oops"))),
                java.util.OptionalInt.of(2), "oops", null);
        assertThat(spawnFailed.processError()).contains(new ProcessBoundaryError.Exited(2, "oops"));
        assertThat(spawnFailed.exitCode()).hasValue(2);
        RuntimeModuleException unloaded = new ModuleRouteException("m", new ModuleRouteError.UnloadedModule("m"));
        assertThat(unloaded.boundaryError()).isEmpty();
        assertThat(unloaded.isTimeout()).isFalse();
        assertThat(unloaded.getMessage()).isEqualTo("call to module 'm' failed: module 'm' is not loaded: it is not started");
    }

    @Test
    void shutdownReportSortsAndValidates() {
        RuntimeShutdownReport report = new RuntimeShutdownReport(List.of("b", "a", "c"), 0);
        assertThat(report.terminatedModules()).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> new RuntimeShutdownReport(List.of(), -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void routeRequestTakesNullParamsAsJsonNull() {
        ModuleRouteRequest request = new ModuleRouteRequest("m", "tool", null);
        assertThat(request.params().isNull()).isTrue();
        assertThatThrownBy(() -> new ModuleRouteRequest(null, "tool", null)).isInstanceOf(NullPointerException.class);
    }
}
