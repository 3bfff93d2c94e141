package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.Subscription;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpSurfaceRequest;
import org.metaruntime.mcp.McpToolCall;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/**
 * What every MCP module does, whoever serves it: the same assertions run against a real server (the python fixture of
 * meta-testing, {@link RealMcpModuleContractTest}) and against an in-process {@code FakeMcpModule} with the same tools
 * ({@link FakeMcpModuleContractTest}), so a host's test with a fake sees what production sees. The module is
 * {@code tools}, configured the same way in both; its tools: {@code echo_arguments} (structured content: the
 * arguments), {@code error} (an {@code isError} result with {@code message}), {@code slow} (answers after {@code ms}),
 * {@code crash} (the server dies with {@code code} and "fatal: crashed on purpose" on stderr), {@code progress} ({@code steps} updates "{@code label} step n", then "done n"), {@code notify} (a
 * {@code notifications/message} with {@code text}, then "notified"), in that order.
 */
@Timeout(60)
abstract class McpModuleContract {

    static final ObjectMapper MAPPER = new ObjectMapper();
    static final String ID = "tools";
    private static final Duration T = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    UnifiedRuntime runtime;

    /** Serves {@link #ID} in {@code builder}: nothing to do for the real server, the fake for the fake. */
    abstract UnifiedRuntime.Builder serve(UnifiedRuntime.Builder builder);

    /** Returns once the module's server has received {@code calls} tool calls in all (answered or running). */
    abstract void awaitReceived(int calls);

    @BeforeEach
    void start() {
        ModuleConfig tools = ModuleConfig.builder(ID)
                .command(FixtureScripts.mcpServerCommand("--pid-file", dir.resolve("pids").toString()))
                .restartPolicy(RestartPolicy.NEVER).build();
        MetaConfig config = MetaConfig.builder().mcp(tools).discover(ID).build();
        runtime = serve(UnifiedRuntime.builder(config)).options(RuntimeOptions.builder().startupTimeout(T)
                .shutdownHook(false).stopStdinGrace(Duration.ofMillis(500)).stopTermGrace(Duration.ofMillis(500))
                .build()).start();
        assertThat(runtime.loadedModules()).containsExactly(ID);
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pids")).threads("meta-core-");

    @AfterEach
    void close() {
        runtime.close();
    }

    private static ModuleRouteRequest request(String tool, JsonNode arguments) {
        return new ModuleRouteRequest(ID, tool, arguments);
    }

    private static ObjectNode args() {
        return MAPPER.createObjectNode();
    }

    private static ModuleRouteException failure(ModuleCall call) {
        try {
            call.response().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(ModuleRouteException.class);
            ModuleRouteException error = (ModuleRouteException) e.getCause();
            assertThat(error.moduleId()).isEqualTo(ID);
            assertThat(error.getMessage()).startsWith("call to module '" + ID + "' failed: ");
            return error;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the call succeeded");
    }

    private static McpBoundaryError mcpError(ModuleRouteException e) {
        return e.mcpError().orElseThrow(() -> new AssertionError("not an MCP error: " + e.error()));
    }

    private static McpBoundaryError handleFailure(McpToolCall call, Function<McpToolCall, java.util.concurrent.CompletableFuture<?>> future) {
        try {
            future.apply(call).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(ModuleRouteException.class);
            return mcpError((ModuleRouteException) e.getCause());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the call succeeded");
    }

    @Test
    void aRoutedCallAnswersWithThePayloadAndTheWholeResultIsThere() {
        ObjectNode arguments = args().put("text", "héllo 🌍").put("n", 12.50);
        arguments.putArray("list").add(1).add("two");
        ModuleRouteResponse response = runtime.routeModuleCall(request("echo_arguments", arguments), T);
        assertThat(response.moduleId()).isEqualTo(ID);
        assertThat(response.method()).isEqualTo("echo_arguments");
        assertThat(response.payload()).isEqualTo(arguments);

        McpSchema.CallToolResult result = runtime.mcp(ID).callTool("echo_arguments", arguments);
        assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(MAPPER.<JsonNode>valueToTree(result.structuredContent())).isEqualTo(arguments);
        assertThat(result.content()).isNotEmpty().allSatisfy(c -> assertThat(c).isInstanceOf(McpSchema.TextContent.class));

        ModuleRouteResponse text = runtime.routeModuleCall(request("progress", args().put("steps", 0)), T);
        assertThat(text.payload().asText()).isEqualTo("done 0");

        assertThat(runtime.routeModuleCall(request("echo_arguments", null), T).payload()).isEqualTo(args());
        ModuleRouteException notAnObject = failure(runtime.call(request("echo_arguments",
                MAPPER.getNodeFactory().textNode("x")), CallOptions.timeout(T)));
        assertThat(mcpError(notAnObject)).isEqualTo(new McpBoundaryError.ToolCallFailed(ID, "echo_arguments",
                "arguments must be a JSON object, got STRING"));
    }

    @Test
    void aToolThatReportsAnErrorFailsTheRoutedCallWithTheWholeResult() {
        ModuleRouteException e = failure(runtime.call(request("error", args().put("message", "disk full")),
                CallOptions.timeout(T)));
        assertThat(e.code()).isEqualTo("mcp.tool_returned_error");
        McpBoundaryError.ToolReturnedError error = (McpBoundaryError.ToolReturnedError) mcpError(e);
        assertThat(error.moduleId()).isEqualTo(ID);
        assertThat(error.tool()).isEqualTo("error");
        assertThat(error.text()).isEqualTo("disk full");
        assertThat(error.result().isError()).isTrue();
        assertThat(e.getMessage()).isEqualTo("call to module 'tools' failed: tool 'error' of module 'tools' reported "
                + "an error: disk full");

        McpSchema.CallToolResult result = runtime.mcp(ID).callTool("error", args().put("message", "disk full"));
        assertThat(result.isError()).isTrue();
        assertThat(result.content()).containsExactly(new McpSchema.TextContent("disk full"));
        assertThat(handleFailure(runtime.mcp(ID).startCall("error", args().put("message", "disk full"),
                CallOptions.timeout(T)), McpToolCall::payload)).isEqualTo(error);
    }

    @Test
    void anUnknownToolIsToolNotFoundListingTheModulesTools() {
        ModuleRouteException e = failure(runtime.call(request("no_such_tool", args()), CallOptions.timeout(T)));
        assertThat(e.code()).isEqualTo("mcp.tool_not_found");
        McpBoundaryError.ToolNotFound error = (McpBoundaryError.ToolNotFound) mcpError(e);
        assertThat(error.tool()).isEqualTo("no_such_tool");
        assertThat(error.availableTools()).contains("echo_arguments", "error", "slow", "progress", "notify", "crash");
        assertThat(error.availableTools()).isEqualTo(runtime.mcp(ID).tools().stream().map(McpSchema.Tool::name).toList());

        assertThatThrownBy(() -> runtime.mcp(ID).callTool("no_such_tool", args()))
                .isInstanceOf(ModuleRouteException.class)
                .satisfies(thrown -> assertThat(mcpError((ModuleRouteException) thrown)).isEqualTo(error));
    }

    @Test
    void aCallThatOutlivesItsTimeoutFailsWithTimeout() {
        ModuleRouteException e = failure(runtime.call(request("slow", args().put("ms", 30_000)),
                CallOptions.timeout(Duration.ofMillis(300))));
        assertThat(e.code()).isEqualTo("mcp.timeout");
        assertThat(e.isTimeout()).isTrue();
        McpBoundaryError.Timeout timeout = (McpBoundaryError.Timeout) mcpError(e);
        assertThat(timeout.operation()).isEqualTo("call_tool:slow");
        assertThat(timeout.timeoutMs()).isEqualTo(300);

        assertThatThrownBy(() -> runtime.mcp(ID).callTool("slow", args().put("ms", 30_000),
                CallOptions.timeout(Duration.ofMillis(300))))
                .isInstanceOf(ModuleRouteException.class)
                .satisfies(thrown -> assertThat(((ModuleRouteException) thrown).code()).isEqualTo("mcp.timeout"));
        // the module still serves calls
        assertThat(runtime.routeModuleCall(request("echo_arguments", args().put("after", true)), T).payload())
                .isEqualTo(args().put("after", true));
    }

    @Test
    void cancellingACallFailsItWithCancelled() {
        ModuleCall call = runtime.call(request("slow", args().put("ms", 30_000)), CallOptions.timeout(T));
        awaitReceived(1);
        call.cancel();
        ModuleRouteException e = failure(call);
        assertThat(e.code()).isEqualTo("mcp.cancelled");
        assertThat(e.error()).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.Cancelled(ID, "slow"))));

        McpToolCall handle = runtime.mcp(ID).startCall("slow", args().put("ms", 30_000), CallOptions.timeout(T));
        awaitReceived(2);
        handle.cancel();
        handle.cancel();
        assertThat(handleFailure(handle, McpToolCall::result)).isEqualTo(new McpBoundaryError.Cancelled(ID, "slow"));
        assertThat(handleFailure(handle, McpToolCall::payload)).isEqualTo(new McpBoundaryError.Cancelled(ID, "slow"));
        assertThat(handle.finished()).succeedsWithin(Duration.ofSeconds(20));

        ModuleCall early = runtime.call(request("slow", args().put("ms", 30_000)), CallOptions.timeout(T));
        early.cancel();
        assertThat(failure(early).error()).isEqualTo(e.error());
        assertThat(runtime.routeModuleCall(request("echo_arguments", args()), T).payload()).isEqualTo(args());
    }

    @Test
    void progressReachesItsCallInOrderBeforeTheResponse() throws Exception {
        List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
        List<Integer> seenAtResponse = new ArrayList<>();
        ModuleCall call = runtime.call(request("progress", args().put("steps", 3).put("label", "copy")),
                CallOptions.builder().timeout(T).onProgress(updates::add).build());
        ModuleRouteResponse response = call.response().thenApply(r -> {
            seenAtResponse.add(updates.size());
            return r;
        }).get(30, TimeUnit.SECONDS);
        assertThat(response.payload().asText()).isEqualTo("done 3");
        assertThat(seenAtResponse).containsExactly(3);
        assertThat(updates).containsExactly(new ProgressUpdate(1, 3.0, "copy step 1"),
                new ProgressUpdate(2, 3.0, "copy step 2"), new ProgressUpdate(3, 3.0, "copy step 3"));

        List<ProgressUpdate> viaMcp = new CopyOnWriteArrayList<>();
        McpSchema.CallToolResult result = runtime.mcp(ID).callTool("progress", args().put("steps", 2),
                CallOptions.builder().timeout(T).onProgress(viaMcp::add).build());
        assertThat(result.content()).containsExactly(new McpSchema.TextContent("done 2"));
        assertThat(viaMcp).containsExactly(new ProgressUpdate(1, 2.0, "step 1"), new ProgressUpdate(2, 2.0, "step 2"));

        List<ProgressUpdate> throwing = new CopyOnWriteArrayList<>();
        ModuleRouteResponse stillAnswered = runtime.call(request("progress", args().put("steps", 2)),
                CallOptions.builder().timeout(T).onProgress(p -> {
                    throwing.add(p);
                    throw new IllegalStateException("listener bug");
                }).build()).response().get(30, TimeUnit.SECONDS);
        assertThat(stillAnswered.payload().asText()).isEqualTo("done 2");
        assertThat(throwing).hasSize(2);
    }

    @Test
    void theMcpSurfaceListsToolsAndServesNotificationsAndRefusesWhatTheServerDoesNotOffer() throws Exception {
        McpModule tools = runtime.mcp(ID);
        assertThat(tools.moduleId()).isEqualTo(ID);
        List<McpSchema.Tool> descriptors = tools.tools();
        assertThat(descriptors).extracting(McpSchema.Tool::name)
                .containsSubsequence("echo_arguments", "error", "slow", "crash", "progress", "notify");
        assertThat(descriptors).allSatisfy(tool -> assertThat(tool.inputSchema()).containsEntry("type", "object"));
        assertThat(tools.role("search.query")).isEqualTo(new ToolRole.SeatVerb("search", "query"));

        List<McpSchema.JSONRPCNotification> seen = new CopyOnWriteArrayList<>();
        try (Subscription subscription = tools.subscribeNotifications(seen::add)) {
            McpSchema.CallToolResult notified = tools.callTool("notify", args().put("text", "hello"));
            assertThat(notified.content()).containsExactly(new McpSchema.TextContent("notified"));
            await().atMost(20, TimeUnit.SECONDS).until(() -> seen.size() == 1);
            assertThat(seen.get(0).method()).isEqualTo("notifications/message");
            assertThat(MAPPER.<JsonNode>valueToTree(seen.get(0).params()))
                    .isEqualTo(args().put("level", "info").put("data", "hello"));
            assertThat(subscription.isClosed()).isFalse();
        }
        tools.callTool("notify", args().put("text", "after close"));
        assertThat(runtime.routeModuleCall(request("echo_arguments", args()), T).payload()).isEqualTo(args());
        assertThat(seen).hasSize(1);

        for (ThrowingOperation operation : List.<ThrowingOperation>of(tools::listResources, tools::listResourceTemplates,
                () -> tools.readResource("file:///x"), tools::listPrompts, () -> tools.getPrompt("p", Map.of()))) {
            assertThatThrownBy(operation::run).isInstanceOf(ModuleRouteException.class).satisfies(thrown -> {
                McpBoundaryError error = mcpError((ModuleRouteException) thrown);
                assertThat(error).isInstanceOf(McpBoundaryError.JsonRpcError.class);
                assertThat(((McpBoundaryError.JsonRpcError) error).errorCode()).isEqualTo(-32601);
                assertThat(((ModuleRouteException) thrown).code()).isEqualTo("mcp.json_rpc_error");
            });
        }
        CompletableFuture<?> read = tools.surfaceAsync(McpSurfaceRequest.readResource("file:///x"));
        assertThatThrownBy(() -> read.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(ModuleRouteException.class)
                .satisfies(thrown -> assertThat(((ModuleRouteException) thrown.getCause()).code()).isEqualTo("mcp.json_rpc_error"));

        ObjectNode task = args().put("taskId", "t1");
        assertThatThrownBy(() -> tools.request("tasks/get", task)).isInstanceOf(ModuleRouteException.class)
                .satisfies(thrown -> assertThat(((McpBoundaryError.JsonRpcError) mcpError((ModuleRouteException) thrown))
                        .errorCode()).isEqualTo(-32601));
        CompletableFuture<JsonNode> asked = tools.requestAsync("tasks/get", task);
        assertThatThrownBy(() -> asked.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(ModuleRouteException.class)
                .satisfies(thrown -> assertThat(((ModuleRouteException) thrown.getCause()).code()).isEqualTo("mcp.json_rpc_error"));
    }

    @FunctionalInterface
    private interface ThrowingOperation {
        Object run();
    }

    @Test
    void aServerThatDiesFailsItsCallsAtOnceWithTheExitCodeAndStderr() {
        ModuleCall slow = runtime.call(request("slow", args().put("ms", 30_000)), CallOptions.timeout(T));
        awaitReceived(1);
        ModuleRouteException crash = failure(runtime.call(request("crash", args().put("code", 3)), CallOptions.timeout(T)));
        ModuleRouteException inFlight = failure(slow);
        for (ModuleRouteException e : List.of(crash, inFlight)) {
            assertThat(e.code()).isEqualTo("mcp.tool_call_failed");
            assertThat(mcpError(e)).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
            assertThat(e.exitCode()).hasValue(3);
            assertThat(e.stderrTail()).contains("fatal: crashed on purpose");
            assertThat(e.getMessage()).contains("exited with code 3").contains("fatal: crashed on purpose");
        }
        await().atMost(20, TimeUnit.SECONDS).until(() -> runtime.supervisorReport().get(ID).state()
                == org.metaruntime.supervisor.ModuleHealthState.FAILED);
        ModuleRouteException after = failure(runtime.call(request("echo_arguments", args()), CallOptions.timeout(T)));
        assertThat(after.error()).isEqualTo(new ModuleRouteError.ModuleUnavailable(ID,
                org.metaruntime.supervisor.ModuleHealthState.FAILED));
    }
}
