package org.metaruntime.benchmarks.integrations;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProviderRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.metaruntime.benchmarks.harness.NodeBench;
import org.metaruntime.benchmarks.harness.Options;
import org.metaruntime.benchmarks.harness.Rounds;
import org.metaruntime.benchmarks.harness.Timing;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.langchain4j.MetaRuntimeToolProvider;

/**
 * A tool call through the langchain4j provider's {@code ToolExecutor} against the same call made directly on the
 * runtime, in one run, on one module (the raw python MCP fixture server, tool {@code echo}). Every round measures
 * each path once, starting with a different one; the table gives the median over rounds and the median of the
 * ratios within a round.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.integrations.Langchain4jComparison \
 *      [--rounds 9] [--warm-calls 5000] [--repo .]
 * </pre>
 */
public final class Langchain4jComparison {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(60);
    private static final int WARMUP = 2000;

    private final Rounds rounds = new Rounds();
    private final UnifiedRuntime runtime;
    private final ToolExecutor executor;
    private final int calls;

    private Langchain4jComparison(UnifiedRuntime runtime, int calls) {
        this.runtime = runtime;
        this.calls = calls;
        this.executor = MetaRuntimeToolProvider.builder(runtime).build()
                .provideTools(new ToolProviderRequest("bench", UserMessage.from("bench")))
                .toolExecutorByName("bench__echo");
        if (executor == null) {
            throw new IllegalStateException("the provider does not offer bench__echo");
        }
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(Langchain4jComparison.class, args, "rounds", "9", "warm-calls", "5000",
                "repo", ".");
        Path server = opts.path("repo").resolve("meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py");
        String python = NodeBench.realPython();
        MetaConfig config = MetaConfig.builder()
                .mcp(ModuleConfig.builder("bench").command(python, server.toString()).build())
                .discover("bench").build();
        try (UnifiedRuntime runtime = UnifiedRuntime.builder(config)
                .options(RuntimeOptions.builder().shutdownHook(false).build()).start()) {
            Langchain4jComparison bench = new Langchain4jComparison(runtime, opts.integer("warm-calls"));
            System.out.println("python: " + python + ", " + Rounds.machine());
            bench.rounds.runAndPrint(opts.integer("rounds"), bench::round, bench::table);
        }
    }

    private void round(int round) throws Exception {
        Rounds.rotated(round, List.of(
                () -> rounds.record("r.routed.us", Timing.sequential(WARMUP, calls, this::routed)),
                () -> rounds.record("m.callTool.us", Timing.sequential(WARMUP, calls, this::callTool)),
                () -> rounds.record("l.langchain4j.us", Timing.sequential(WARMUP, calls, this::langchain4j))));
    }

    private static ObjectNode arguments(String text) {
        return JSON.createObjectNode().put("text", text);
    }

    /** (r) {@code routeModuleCall}: the routed call, its payload projected from the result. */
    private void routed(String text) {
        Timing.expect(text, runtime.routeModuleCall(new ModuleRouteRequest("bench", "echo", arguments(text)), T)
                .payload().textValue());
    }

    /** (m) {@code mcp(id).callTool}: the whole {@code CallToolResult}, the call the provider makes. */
    private void callTool(String text) {
        Timing.expect(text, ((io.modelcontextprotocol.spec.McpSchema.TextContent) runtime.mcp("bench")
                .callTool("echo", arguments(text)).content().get(0)).text());
    }

    /** (l) the provider's executor, given the arguments as the JSON text a model writes. */
    private void langchain4j(String text) {
        ToolExecutionResult result = executor.executeWithContext(ToolExecutionRequest.builder().id("1")
                .name("bench__echo").arguments("{\"text\":\"" + text + "\"}").build(), null);
        if (result.isError()) {
            throw new IllegalStateException(result.resultText());
        }
        Timing.expect(text, result.resultText());
    }

    private String table() {
        StringBuilder out = new StringBuilder();
        out.append("| path | warm sequential `tools/call`, µs/call (median) |\n|---|---:|\n");
        out.append(row("(r) `UnifiedRuntime.routeModuleCall`", rounds.median("r.routed.us")));
        out.append(row("(m) `UnifiedRuntime.mcp(id).callTool`", rounds.median("m.callTool.us")));
        out.append(row("(l) langchain4j `ToolExecutor` of `MetaRuntimeToolProvider`",
                rounds.median("l.langchain4j.us")));
        out.append("\n| ratio (median of per-round ratios) | value |\n|---|---:|\n");
        out.append(String.format(Locale.ROOT, "| (l) / (r) | %.2f |%n", rounds.ratio("l.langchain4j.us", "r.routed.us")));
        out.append(String.format(Locale.ROOT, "| (l) / (m) | %.2f |%n", rounds.ratio("l.langchain4j.us", "m.callTool.us")));
        return out.toString();
    }

    private static String row(String path, double us) {
        return String.format(Locale.ROOT, "| %s | %.1f |%n", path, us);
    }
}
