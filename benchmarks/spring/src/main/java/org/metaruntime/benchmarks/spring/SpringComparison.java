package org.metaruntime.benchmarks.spring;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaruntime.core.McpModule;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.spring.MetaRuntimeToolCallbackProvider;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What the Spring Boot starter costs, against baselines measured in the same run:
 *
 * <ul>
 *   <li>a warm tool call through a Spring AI {@code ToolCallback} of {@code MetaRuntimeToolCallbackProvider}
 *   (arguments as JSON text, the result as text) against {@code runtime.mcp(id).callTool} and
 *   {@code routeModuleCall} on the same runtime and module (the raw python MCP server of meta-testing, tool
 *   {@code echo});</li>
 *   <li>the start and close of an application context with 10 lazy modules declared in properties against an empty
 *   one (same auto-configurations).</li>
 * </ul>
 *
 * One run, interleaved: each round runs every path once, starting with a different one each round; the report gives
 * the median over rounds and the median of the per-round ratios.
 *
 * <pre>
 * mvn -B -q -pl benchmarks/spring -am -Pbench package -DskipTests -Dexec.args="--rounds 7 --calls 5000 --starts 20 --repo $PWD"
 * </pre>
 */
public final class SpringComparison {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SERVER = "meta-testing/src/main/resources/org/metaruntime/testing/mcp_server.py";

    /** The application of the runs: auto-configuration only. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    private SpringComparison() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "7"));
        int calls = Integer.parseInt(options.getOrDefault("calls", "5000"));
        int starts = Integer.parseInt(options.getOrDefault("starts", "20"));
        Path repo = Path.of(options.getOrDefault("repo", ".")).toAbsolutePath().normalize();
        Path server = repo.resolve(SERVER);
        if (!Files.isRegularFile(server)) {
            throw new IllegalArgumentException("no " + SERVER + " under --repo " + repo);
        }
        String python = realPython();
        System.out.printf(Locale.ROOT, "rounds %d, %d warm calls per path and round, %d context starts per path and"
                + " round; python %s%n", rounds, calls, starts, python);
        calls(rounds, calls, python, server);
        starts(rounds, starts, python, server);
    }

    private static void calls(int rounds, int calls, String python, Path server) {
        Map<String, Object> properties = new HashMap<>(command("echo", python, server));
        properties.put("meta.runtime.modules.echo.start", "eager");
        try (ConfigurableApplicationContext context = context(properties)) {
            UnifiedRuntime runtime = context.getBean(UnifiedRuntime.class);
            McpModule module = runtime.mcp("echo");
            ToolCallback callback = Arrays.stream(context.getBean(MetaRuntimeToolCallbackProvider.class)
                    .getToolCallbacks()).filter(c -> c.getToolDefinition().name().equals("echo__echo"))
                    .findFirst().orElseThrow();
            ObjectNode arguments = JSON.createObjectNode().put("text", "hello");
            String input = arguments.toString();
            ModuleRouteRequest request = new ModuleRouteRequest("echo", "echo", arguments);
            Runnable viaCallback = () -> check(callback.call(input));
            Runnable viaCallTool = () -> check(((McpSchema.TextContent) module.callTool("echo", arguments).content()
                    .get(0)).text());
            Runnable viaRoute = () -> check(runtime.routeModuleCall(request).payload().asText());
            List<Runnable> paths = List.of(viaCallback, viaCallTool, viaRoute);
            for (Runnable path : paths) {
                time(path, calls);
            }
            double[][] perRound = new double[paths.size()][rounds];
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < paths.size(); i++) {
                    int p = (i + round) % paths.size();
                    perRound[p][round] = time(paths.get(p), calls) / 1000.0 / calls;
                }
            }
            System.out.println();
            System.out.println("| warm sequential call, µs/call (median of rounds) | value |");
            System.out.println("|---|---:|");
            System.out.printf(Locale.ROOT, "| (s) Spring AI `ToolCallback.call` | %.1f |%n", median(perRound[0]));
            System.out.printf(Locale.ROOT, "| (t) `runtime.mcp(id).callTool` | %.1f |%n", median(perRound[1]));
            System.out.printf(Locale.ROOT, "| (r) `runtime.routeModuleCall` | %.1f |%n", median(perRound[2]));
            System.out.printf(Locale.ROOT, "| ratio (s) / (t), median of per-round ratios | %.3f |%n",
                    medianRatio(perRound[0], perRound[1]));
            System.out.printf(Locale.ROOT, "| ratio (s) / (r), median of per-round ratios | %.3f |%n",
                    medianRatio(perRound[0], perRound[2]));
        }
    }

    private static void starts(int rounds, int starts, String python, Path server) {
        Map<String, Object> lazy = new HashMap<>();
        for (int i = 0; i < 10; i++) {
            lazy.putAll(command("lazy" + i, python, server));
        }
        Map<String, Object> empty = Map.of();
        List<Map<String, Object>> paths = List.of(empty, lazy);
        for (Map<String, Object> path : paths) {
            startAndClose(path, starts);
        }
        double[][] perRound = new double[paths.size()][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < paths.size(); i++) {
                int p = (i + round) % paths.size();
                perRound[p][round] = startAndClose(paths.get(p), starts);
            }
        }
        System.out.println();
        System.out.println("| context start + close, ms (median of rounds) | value |");
        System.out.println("|---|---:|");
        System.out.printf(Locale.ROOT, "| (e) no module | %.1f |%n", median(perRound[0]));
        System.out.printf(Locale.ROOT, "| (l) 10 lazy modules | %.1f |%n", median(perRound[1]));
        double[] added = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            added[round] = perRound[1][round] - perRound[0][round];
        }
        System.out.printf(Locale.ROOT, "| added by the 10 lazy modules, ms (median of per-round differences) | %.1f |%n",
                median(added));
    }

    /** The mean time of {@code starts} starts and closes of a context with {@code properties}, in ms. */
    private static double startAndClose(Map<String, Object> properties, int starts) {
        long total = 0;
        for (int i = 0; i < starts; i++) {
            long start = System.nanoTime();
            try (ConfigurableApplicationContext context = context(properties)) {
                context.getBean(MetaRuntimeToolCallbackProvider.class);
            }
            total += System.nanoTime() - start;
        }
        return total / 1e6 / starts;
    }

    private static ConfigurableApplicationContext context(Map<String, Object> properties) {
        Map<String, Object> all = new HashMap<>(properties);
        all.put("spring.main.banner-mode", "off");
        all.put("spring.main.log-startup-info", "false");
        return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).properties(all).run();
    }

    private static Map<String, Object> command(String id, String python, Path server) {
        return Map.of("meta.runtime.modules." + id + ".command[0]", python,
                "meta.runtime.modules." + id + ".command[1]", server.toString());
    }

    private static long time(Runnable path, int calls) {
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            path.run();
        }
        return System.nanoTime() - start;
    }

    private static void check(String text) {
        if (!"hello".equals(text)) {
            throw new IllegalStateException("unexpected answer: " + text);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double medianRatio(double[] a, double[] b) {
        double[] ratios = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            ratios[i] = a[i] / b[i];
        }
        return median(ratios);
    }

    private static String realPython() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").start();
        String path = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (process.waitFor() != 0 || path.isEmpty()) {
            throw new IllegalStateException("python3 is needed");
        }
        return path;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help")) {
                System.out.println("options: --rounds N (7) --calls N (5000) --starts N (20) --repo DIR (.)");
                System.exit(0);
            }
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option " + args[i] + " (--help lists them)");
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }
}
