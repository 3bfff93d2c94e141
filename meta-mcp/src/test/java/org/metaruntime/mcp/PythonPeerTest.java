package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.StopStage;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.metaruntime.testing.LeakCheck;

/** The MCP boundary against the raw python MCP server fixture, in PERSISTENT mode. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PythonPeerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(20);
    private static final List<String> FIXTURE_TOOLS = List.of("echo", "echo_arguments", "add", "whoami",
            "json_text", "structured", "multi_text", "mixed", "error", "large", "slow", "hang", "crash", "garbage",
            "change_tools", "add_tool_silently", "ask_client", "cancelled", "unicode", "progress", "notify");

    @TempDir
    Path dir;

    private final List<McpConnection> opened = new ArrayList<>();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().zero("shared timer leases", SharedTimer::leases).threads(Peers.THREADS);

    @AfterEach
    void close() {
        for (McpConnection c : opened) {
            try {
                c.close(Duration.ofSeconds(10));
            } catch (McpBoundaryException ignored) {
                // the test may have closed it already with a different outcome
            }
        }
    }

    private McpConnection open(String... switches) {
        return open(McpClientOptions.defaults(), switches);
    }

    private McpConnection open(McpClientOptions options, String... switches) {
        McpProbeResult probe = McpProbe.probe(Peers.python("py", dir.resolve("pid"), switches), options, T);
        opened.add(probe.connection());
        return probe.connection();
    }

    private static ObjectNode args(Object... kv) {
        ObjectNode node = JSON.createObjectNode();
        for (int i = 0; i < kv.length; i += 2) {
            node.set((String) kv[i], JSON.valueToTree(kv[i + 1]));
        }
        return node;
    }

    private static McpBoundaryError errorOf(Runnable r) {
        return catchThrowableOfType(McpBoundaryException.class, r::run).error();
    }

    @Test
    void probeListsSortedToolsAndKeepsTheConnectionOpen() {
        McpProbeResult probe = McpProbe.probe(Peers.python("py", dir.resolve("pid")), McpClientOptions.defaults(), T);
        opened.add(probe.connection());
        assertThat(probe.tools()).isSorted().containsExactlyInAnyOrderElementsOf(FIXTURE_TOOLS);
        assertThat(probe.connection().tools()).containsExactlyElementsOf(FIXTURE_TOOLS);
        assertThat(probe.connection().isOpen()).isTrue();
        assertThat(probe.connection().pid()).isEqualTo(Peers.readPid(dir.resolve("pid")));
        assertThat(probe.connection().protocolVersion()).isEqualTo(McpConnection.PROTOCOL_VERSIONS.get(0));
        probe.connection().close(T);
        assertThat(probe.connection().isOpen()).isFalse();
        assertThat(probe.connection().stopReport().stage()).isEqualTo(StopStage.EXITED_AFTER_STDIN_CLOSE);
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void resultsMapToPayloads() {
        McpConnection c = open();
        assertThat(c.callTool("echo", args("text", "plain words"), T)).isEqualTo(TextNode.valueOf("plain words"));
        assertThat(c.callTool("echo", args("text", "42"), T)).isEqualTo(JSON.valueToTree(42));
        assertThat(c.callTool("json_text", args("value", List.of(1, "two")), T)).isEqualTo(JSON.valueToTree(List.of(1, "two")));
        assertThat(c.callTool("structured", args("value", java.util.Map.of("k", "v")), T))
                .isEqualTo(JSON.valueToTree(java.util.Map.of("k", "v")));
        assertThat(c.callTool("multi_text", null, T)).isEqualTo(JSON.valueToTree(java.util.Map.of("a", 1)));
        JsonNode mixed = c.callTool("mixed", null, T);
        assertThat(mixed.isArray()).isTrue();
        assertThat(mixed).hasSize(2);
        assertThat(mixed.get(1).get("type").asText()).isEqualTo("image");
        assertThat(mixed.get(1).get("data").asText()).isEqualTo("aGVsbG8=");
        assertThat(c.callTool("echo", args("text", "{not json"), T)).isEqualTo(TextNode.valueOf("{not json"));
    }

    @Test
    void isErrorIsToolReturnedErrorWithTheWholeResult() {
        McpConnection c = open();
        McpBoundaryError e = errorOf(() -> c.callTool("error", args("message", "bad input"), T));
        assertThat(e).isInstanceOfSatisfying(McpBoundaryError.ToolReturnedError.class, r -> {
            assertThat(r.text()).isEqualTo("bad input");
            assertThat(r.result().isError()).isTrue();
            assertThat(r.result().content()).hasSize(1);
        });
        assertThat(e.code()).isEqualTo("mcp.tool_returned_error");
        assertThat(e.message()).contains("'error'").contains("'py'").contains("bad input");
    }

    @Test
    void aHugeTimeoutCountsAsAHundredYears() {
        McpConnection c = open();
        assertThat(c.callTool("echo", args("text", "patient"), Duration.ofDays(365_000))).isEqualTo(TextNode.valueOf("patient"));
        assertThat(c.startCall("echo", args("text", "async"), McpCallOptions.of(Duration.ofSeconds(Long.MAX_VALUE)))
                .payload().join()).isEqualTo(TextNode.valueOf("async"));
        assertThat(McpCallOptions.of(Duration.ofDays(365_000)).timeout()).isEqualTo(Duration.ofDays(36_500));
    }

    @Test
    void nonObjectArgumentsAreRefused() {
        McpConnection c = open();
        assertThat(errorOf(() -> c.callTool("echo", JSON.valueToTree(List.of(1)), T)))
                .isInstanceOf(McpBoundaryError.ToolCallFailed.class);
    }

    @Test
    void unknownToolIsToolNotFoundWithServerOrder() {
        McpConnection c = open();
        assertThat(errorOf(() -> c.callTool("nope", null, T)))
                .isEqualTo(new McpBoundaryError.ToolNotFound("py", "nope", FIXTURE_TOOLS));
        assertThat(c.callToolAsync("nope", null, T)).failsWithin(T).withThrowableThat()
                .havingRootCause().isInstanceOf(McpBoundaryException.class);
    }

    @Test
    void aMissRefreshesTheToolListOnce() {
        McpConnection c = open();
        c.callTool("add_tool_silently", args("name", "silent_tool"), T);
        assertThat(c.tools()).doesNotContain("silent_tool");
        assertThat(c.callTool("silent_tool", null, T)).isEqualTo(TextNode.valueOf("late tool silent_tool"));
        assertThat(c.tools()).endsWith("silent_tool");
    }

    @Test
    void listChangedRefreshesTheCache() {
        McpConnection c = open();
        c.callTool("change_tools", args("name", "announced_tool"), T);
        await().atMost(T).until(() -> c.tools().contains("announced_tool"));
        assertThat(c.listTools(T)).endsWith("announced_tool");
    }

    @Test
    void aListChangedListenerGetsTheChangedListOnceItIsReRead() {
        McpConnection c = open();
        CompletableFuture<List<McpSchema.Tool>> announced = new CompletableFuture<>();
        c.subscribeNotifications(n -> {
            if (McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(n.method())) {
                c.toolDescriptorsAsync().whenComplete((tools, e) -> announced.complete(tools));
            }
        });
        c.callTool("change_tools", args("name", "announced_tool"), T);
        assertThat(announced).succeedsWithin(T).satisfies(tools ->
                assertThat(tools.stream().map(McpSchema.Tool::name).toList()).endsWith("announced_tool"));
    }

    @Test
    void garbageOnStdoutIsSkipped() {
        McpConnection c = open("--garbage-before");
        JsonNode answer = c.callTool("garbage", args("token", "g-1"), T);
        assertThat(answer.get("tool").asText()).isEqualTo("garbage");
        assertThat(answer.get("token").asText()).isEqualTo("g-1");
        assertThat(answer.get("pid").asLong()).isEqualTo(c.pid());
        assertThat(c.callTool("echo", args("text", "still here"), T)).isEqualTo(TextNode.valueOf("still here"));
    }

    @Test
    void timeoutCancelsTheRequestAndDropsTheLateAnswer() {
        McpConnection c = open();
        assertThat(errorOf(() -> c.callTool("slow", args("ms", 400, "answer_even_if_cancelled", true), Duration.ofMillis(100))))
                .isEqualTo(new McpBoundaryError.Timeout("py", "call_tool:slow", 100));
        JsonNode cancelled = c.callTool("cancelled", null, T);
        assertThat(cancelled.get("ids")).hasSize(1);
        // the late answer arrives while these run; each call still gets its own answer
        for (int i = 0; i < 20; i++) {
            assertThat(c.callTool("echo", args("text", "n" + i), T)).isEqualTo(TextNode.valueOf("n" + i));
        }
        await().atMost(T).until(() -> c.droppedAnswers() == 1);
        assertThat(c.callToolAsync("hang", null, Duration.ofMillis(100))).failsWithin(T).withThrowableThat()
                .withRootCauseInstanceOf(McpBoundaryException.class);
        await().atMost(T).untilAsserted(() -> assertThat(c.callTool("cancelled", null, T).get("ids")).hasSize(2));
        assertThat(c.inFlight()).isZero();
    }

    @Test
    void aDyingServerFailsEveryCallAtOnce() throws Exception {
        McpConnection c = open();
        Duration longTimeout = Duration.ofMinutes(5);
        List<CompletableFuture<JsonNode>> inFlight = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            inFlight.add(c.callToolAsync("hang", null, longTimeout));
        }
        McpBoundaryException died = catchThrowableOfType(McpBoundaryException.class,
                () -> c.callTool("crash", args("code", 7), longTimeout));
        assertThat(died.exitCode()).hasValue(7);
        assertThat(died.stderrTail()).contains("fatal: crashed on purpose");
        assertThat(died.moduleId()).isEqualTo("py");
        assertThat(died.code()).isEqualTo("mcp.tool_call_failed");
        McpBoundaryError crash = died.error();
        assertThat(crash).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
        assertThat(((McpBoundaryError.ToolCallFailed) crash).reason()).contains("exited with code 7")
                .contains("fatal: crashed on purpose");
        for (CompletableFuture<JsonNode> f : inFlight) {
            assertThat(f).failsWithin(T).withThrowableThat().havingRootCause()
                    .isInstanceOfSatisfying(McpBoundaryException.class, e -> {
                        assertThat(e.exitCode()).hasValue(7);
                        assertThat(e.error()).isInstanceOfSatisfying(McpBoundaryError.ToolCallFailed.class,
                                t -> assertThat(t.reason()).contains("exited with code 7"));
                    });
        }
        assertThat(c.exitFuture().get(10, TimeUnit.SECONDS).exitCode()).isEqualTo(7);
        assertThat(c.isOpen()).isFalse();
        assertThat(c.stderrTail()).contains("crashed on purpose");
        assertThat(errorOf(() -> c.callTool("echo", null, T))).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
    }

    @Test
    void concurrentCallsAreMultiplexedAndQueuedBeyondTheLimit() {
        McpConnection c = open(McpClientOptions.builder().maxInFlight(8).build());
        List<CompletableFuture<JsonNode>> futures = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            futures.add(c.callToolAsync("echo", args("text", "call-" + i), T));
        }
        for (int i = 0; i < futures.size(); i++) {
            assertThat(futures.get(i).join()).isEqualTo(TextNode.valueOf("call-" + i));
        }
        assertThat(c.inFlight()).isZero();
    }

    @Test
    void beyondInFlightAndQueueACallFailsAtOnce() {
        McpConnection c = open(McpClientOptions.builder().maxInFlight(1).maxQueued(0).build());
        CompletableFuture<JsonNode> hanging = c.callToolAsync("hang", null, Duration.ofMinutes(1));
        McpBoundaryError refused = errorOf(() -> c.callTool("echo", null, T));
        assertThat(refused).isEqualTo(new McpBoundaryError.CallRefused("py", "echo", 1, 0));
        assertThat(refused.code()).isEqualTo("mcp.call_refused");
        assertThat(hanging).isNotDone();
    }

    @Test
    void serverToClientRequestsAreAnswered() {
        McpConnection c = open(McpClientOptions.builder().root(new McpRoot("file:///srv/data", "data")).build());
        assertThat(c.callTool("ask_client", args("method", "ping"), T).at("/response/result"))
                .isEqualTo(JSON.createObjectNode());
        assertThat(c.callTool("ask_client", args("method", "roots/list"), T).at("/response/result/roots"))
                .isEqualTo(JSON.valueToTree(List.of(java.util.Map.of("uri", "file:///srv/data", "name", "data"))));
        JsonNode sampling = c.callTool("ask_client", args("method", "sampling/createMessage"), T).at("/response/error");
        assertThat(sampling.get("code").asInt()).isEqualTo(-32601);
        assertThat(sampling.get("message").asText()).contains("does not support sampling/createMessage");
        JsonNode elicitation = c.callTool("ask_client", args("method", "elicitation/create"), T).at("/response/error");
        assertThat(elicitation.get("message").asText()).contains("does not support elicitation/create");
        JsonNode unknown = c.callTool("ask_client", args("method", "no/such/method"), T).at("/response/error");
        assertThat(unknown.get("code").asInt()).isEqualTo(-32601);
    }

    @Test
    void registeredHandlersAnswerSamplingAndElicitation() {
        McpClientOptions options = McpClientOptions.builder()
                .samplingHandler((module, params) -> CompletableFuture.completedFuture(
                        JSON.createObjectNode().put("module", module).set("echo", params)))
                .elicitationHandler((module, params) -> CompletableFuture.failedFuture(new IllegalStateException("declined")))
                .build();
        McpConnection c = open(options);
        JsonNode sampled = c.callTool("ask_client", args("method", "sampling/createMessage", "params", java.util.Map.of("x", 1)), T);
        assertThat(sampled.at("/response/result/module").asText()).isEqualTo("py");
        assertThat(sampled.at("/response/result/echo/x").asInt()).isEqualTo(1);
        JsonNode elicited = c.callTool("ask_client", args("method", "elicitation/create"), T);
        assertThat(elicited.at("/response/error/message").asText()).contains("declined");
    }

    @Test
    void largeResultsArrive() {
        McpConnection c = open();
        JsonNode payload = c.callTool("large", args("bytes", 10 * 1024 * 1024), T);
        assertThat(payload.textValue()).hasSize(10 * 1024 * 1024);
        assertThat(c.callTool("echo", args("text", "after"), T)).isEqualTo(TextNode.valueOf("after"));
    }

    @Test
    void anOverLongLineIsSkippedAndTheSessionGoesOn() {
        McpProbeResult probe = McpProbe.probe(org.metaruntime.supervisor.ProcessSpec.builder("py")
                .command(Peers.python("py", dir.resolve("pid")).command()).maxLineBytes(64 * 1024).build(),
                McpClientOptions.defaults(), T);
        McpConnection c = probe.connection();
        opened.add(c);
        // the only call in flight: it fails at once, not at its timeout
        assertThat(errorOf(() -> c.callTool("large", args("bytes", 200_000), Duration.ofMinutes(5))))
                .isEqualTo(new McpBoundaryError.LineTooLong("py", "call_tool:large", 64 * 1024));
        assertThat(c.callTool("large", args("bytes", 1000), T).textValue()).hasSize(1000);
        assertThat(c.isOpen()).isTrue();
    }

    @Test
    void unicodeSurvivesBothWays() {
        McpConnection c = open();
        String text = "naïve 日本語 中文 한국어 🎉👩‍💻";
        JsonNode payload = c.callTool("unicode", args("text", text), T);
        assertThat(payload.get("got").asText()).isEqualTo(text);
        assertThat(payload.get("fixed").asText()).isEqualTo("héllo 世界 🎉");
    }

    @Test
    void hangAtInitializeIsConnectTimeoutAndKillsTheServer() {
        McpBoundaryError e = errorOf(() -> McpConnection.open(Peers.python("py", dir.resolve("pid"), "--hang-at", "initialize"),
                McpClientOptions.defaults(), Duration.ofSeconds(4)));
        assertThat(e).isEqualTo(new McpBoundaryError.Timeout("py", "connect", 4000));
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void failingInitializeIsConnectionFailed() {
        McpBoundaryError e = errorOf(() -> McpConnection.open(Peers.python("py", dir.resolve("pid"), "--fail-at", "initialize"),
                McpClientOptions.defaults(), T));
        assertThat(e).isInstanceOf(McpBoundaryError.ConnectionFailed.class);
        assertThat(((McpBoundaryError.ConnectionFailed) e).reason()).contains("failing initialize on purpose");
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void unsupportedProtocolVersionIsConnectionFailed() {
        McpBoundaryError e = errorOf(() -> McpConnection.open(Peers.python("py", dir.resolve("pid"), "--protocol", "1999-01-01"),
                McpClientOptions.defaults(), T));
        assertThat(((McpBoundaryError.ConnectionFailed) e).reason()).contains("1999-01-01");
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void aServerThatExitsDuringInitializeIsConnectionFailedWithItsExitCode() {
        McpBoundaryException thrown = catchThrowableOfType(McpBoundaryException.class, () -> McpConnection.open(
                org.metaruntime.supervisor.ProcessSpec.builder("py").command(Peers.tool("python3"), "-c",
                        "import sys; sys.stderr.write('no config\\n'); sys.exit(4)").build(),
                McpClientOptions.defaults(), Duration.ofMinutes(1)));
        assertThat(((McpBoundaryError.ConnectionFailed) thrown.error()).reason()).contains("exited with code 4")
                .contains("no config");
        assertThat(thrown.exitCode()).hasValue(4);
        assertThat(thrown.stderrTail()).contains("no config");
    }

    @Test
    void spawnFailureIsConnectionFailed() {
        McpBoundaryError e = errorOf(() -> McpConnection.open(org.metaruntime.supervisor.ProcessSpec.builder("py")
                .command(dir.resolve("does-not-exist").toString()).build(), McpClientOptions.defaults(), T));
        assertThat(e).isInstanceOf(McpBoundaryError.ConnectionFailed.class);
        assertThat(SharedTimer.leases()).isZero();
    }

    @Test
    void failingToolsListInTheProbeIsToolListFailed() {
        McpBoundaryError e = errorOf(() -> McpProbe.probe(Peers.python("py", dir.resolve("pid"), "--fail-at", "tools/list"),
                McpClientOptions.defaults(), T));
        assertThat(e).isInstanceOf(McpBoundaryError.ToolListFailed.class);
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void hangingToolsListInTheProbeIsListToolsTimeout() {
        McpBoundaryError e = errorOf(() -> McpProbe.probe(Peers.python("py", dir.resolve("pid"), "--hang-at", "tools/list"),
                McpClientOptions.defaults(), Duration.ofSeconds(4)));
        assertThat(e).isInstanceOf(McpBoundaryError.Timeout.class);
        assertThat(((McpBoundaryError.Timeout) e).operation()).isEqualTo("list_tools");
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void closeStopsAServerThatIgnoresStdinEof() {
        McpConnection c = open("--ignore-eof");
        c.close(Duration.ofSeconds(5));
        assertThat(c.stopReport().stage()).isEqualTo(StopStage.EXITED_AFTER_SIGTERM);
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void closeKillsAServerThatIgnoresEofAndSigterm() {
        McpConnection c = open("--ignore-eof", "--ignore-sigterm");
        c.close(Duration.ofSeconds(3));
        assertThat(c.stopReport().stage()).isEqualTo(StopStage.KILLED);
        Peers.assertGone(dir.resolve("pid"));
        c.close(Duration.ofSeconds(3));
    }

    /** closeAsync returns before the ladder ends; its future gives the outcome close would throw. */
    @Test
    void closeAsyncCompletesWithTheOutcomeOfTheLadder() {
        McpConnection ok = open();
        assertThat(ok.closeAsync(T)).succeedsWithin(T);
        assertThat(ok.stopReport().stage()).isIn(StopStage.ALREADY_EXITED, StopStage.EXITED_AFTER_STDIN_CLOSE);

        McpConnection stubborn = open("--ignore-eof", "--ignore-sigterm");
        CompletableFuture<Void> closing = stubborn.closeAsync(Duration.ofMinutes(1));
        assertThat(closing).succeedsWithin(T);
        assertThat(stubborn.stopReport().stage()).isEqualTo(StopStage.KILLED);
        assertThat(stubborn.closeAsync(T)).as("idempotent").succeedsWithin(T);
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void closeFailsCallsInFlight() {
        McpConnection c = open();
        CompletableFuture<JsonNode> hanging = c.callToolAsync("hang", null, Duration.ofMinutes(1));
        c.close(T);
        assertThat(hanging).failsWithin(T).withThrowableThat().havingRootCause()
                .isInstanceOfSatisfying(McpBoundaryException.class,
                        e -> assertThat(e.error()).isInstanceOf(McpBoundaryError.ToolCallFailed.class));
        assertThatThrownBy(() -> c.callTool("echo", null, T)).isInstanceOf(McpBoundaryException.class);
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> McpConnection.open((org.metaruntime.supervisor.ProcessSpec) null, McpClientOptions.defaults(), T)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> McpConnection.open(Peers.python("py", dir.resolve("pid")), McpClientOptions.defaults(), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(SharedTimer.leases()).isZero();
    }

    static <T> T unwrap(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            throw (RuntimeException) e.getCause();
        }
    }
}
