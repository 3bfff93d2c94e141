package org.metaruntime.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.ModuleRouteResponse;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.RuntimeShutdownReport;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.examples.internal.TextTable;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ModuleSupervisorReport;

/**
 * The meta-runtime demo: four modules in three languages, started, called, crashed, restarted and shut
 * down by one {@link UnifiedRuntime}.
 *
 * <ul>
 *   <li>{@code host-info}: Python, event-line (prints one JSON event and exits);</li>
 *   <li>{@code text-tools}: Python, MCP stdio server on the meta_module.py SDK (standard library only), with a {@code crash} tool;</li>
 *   <li>{@code java-tools}: Java, MCP stdio server on the meta-module SDK ({@link JavaToolsServer}), as a child JVM;</li>
 *   <li>{@code everything}: {@code @modelcontextprotocol/server-everything} from npm, started with node.</li>
 * </ul>
 *
 * <p>Run it from a clone with {@code mvn -B -q -pl examples -am -Pdemo -DskipTests verify}. The program
 * takes one optional argument, the {@code examples} directory (found from the working directory when
 * absent). It exits 0 when every step worked, 1 otherwise; either way it leaves no process running.
 *
 * <p>Not thread-safe: {@link #run(Path, PrintStream)} runs one demo on the calling thread.
 */
public final class Demo {

    static final String HOST_INFO = "host-info";
    static final String TEXT_TOOLS = "text-tools";
    static final String JAVA_TOOLS = JavaToolsServer.MODULE_ID;
    static final String EVERYTHING = "everything";

    /** The pre-spawn value the event-line module echoes back. */
    static final String HOST_INFO_LABEL = "set by the demo's pre-spawn data";

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration RESTART_WAIT = Duration.ofSeconds(30);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path home;
    private final Path stateDir;
    private final PrintStream out;
    private final EventHistory history;
    private final Set<Long> pids = new LinkedHashSet<>();
    private int step;

    private Demo(Path home, Path stateDir, PrintStream out) {
        this.home = home;
        this.stateDir = stateDir;
        this.out = out;
        this.history = new EventHistory(out, stateDir);
    }

    /**
     * What a demo run did, for callers that check it.
     *
     * @param pids           every module process id the demo saw (all must be gone after shutdown)
     * @param transitions    the runtime's health transitions, in order
     * @param shutdownReport the report of the runtime's shutdown
     */
    public record Result(List<Long> pids, List<ModuleHealthTransition> transitions,
                         RuntimeShutdownReport shutdownReport) {
        public Result {
            pids = List.copyOf(pids);
            transitions = List.copyOf(transitions);
            Objects.requireNonNull(shutdownReport, "shutdownReport");
        }
    }

    /** A step of the demo did not go as it should; the message says which and why. */
    public static final class DemoException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DemoException(String message) {
            super(message);
        }

        DemoException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Runs the demo and exits with status 0 on success, 1 on failure.
     *
     * @param args optionally the {@code examples} directory, then the state directory (default
     *             {@code <examples>/target/demo-state})
     */
    public static void main(String[] args) {
        // Only warnings from the runtime and the SDK, short and without thread names (slf4j-simple).
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.showThreadName", "false");
        System.setProperty("org.slf4j.simpleLogger.showShortLogName", "true");
        try {
            Path home = args.length > 0 ? Path.of(args[0]) : findHome(Path.of("").toAbsolutePath());
            run(home, args.length > 1 ? Path.of(args[1]) : defaultStateDir(home), System.out);
        } catch (DemoException e) {
            System.out.flush();
            System.err.println("The demo failed: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Runs every step of the demo, printing to {@code out}.
     *
     * @param examplesDir the {@code examples} directory (holding {@code modules/} and {@code node/})
     * @param out         where the demo prints
     * @return what the demo did
     * @throws DemoException when a step fails; the runtime is shut down first
     */
    public static Result run(Path examplesDir, PrintStream out) {
        Objects.requireNonNull(examplesDir, "examplesDir");
        return run(examplesDir, defaultStateDir(examplesDir), out);
    }

    /**
     * Runs every step of the demo with its runtime state (the event log) in {@code stateDir}: a second run with
     * the same directory reads the first run's events back.
     *
     * @throws DemoException when a step fails; the runtime is shut down first
     */
    public static Result run(Path examplesDir, Path stateDir, PrintStream out) {
        Objects.requireNonNull(examplesDir, "examplesDir");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(out, "out");
        return new Demo(examplesDir.toAbsolutePath().normalize(), stateDir.toAbsolutePath().normalize(), out).run();
    }

    private static Path defaultStateDir(Path examplesDir) {
        return examplesDir.resolve("target").resolve("demo-state");
    }

    private Result run() {
        long started = System.nanoTime();
        out.println("meta-runtime demo: four modules in three languages behind one UnifiedRuntime.");
        MetaConfig config = configure();
        RuntimeShutdownReport report;
        List<ModuleHealthTransition> transitions;
        UnifiedRuntime runtime = start(config);
        try (runtime) {
            showEarlierRuns(runtime);
            callEventLineModule(runtime);
            callPythonMcpModule(runtime);
            callJavaMcpModule(runtime);
            callNpmMcpModule(runtime);
            showTypedError(runtime);
            crashAndRestart(runtime);
            transitions = runtime.moduleHealthTransitions();
            showTransitions(transitions);
            showEventLog(runtime);
            history.printThisRun(runtime.eventLog().orElseThrow(), CALL_TIMEOUT);
            heading("Shutting down");
            report = runtime.shutdown();
        }
        showShutdown(report);
        out.printf("%nThe demo finished in %.1f s.%n", (System.nanoTime() - started) / 1e9);
        return new Result(new ArrayList<>(pids), transitions, report);
    }

    // ------------------------------------------------------------------------------------------- steps

    private MetaConfig configure() {
        heading("Configuring four modules");
        Path serverEverything = home.resolve(
                "node/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        if (!Files.isRegularFile(serverEverything)) {
            throw new DemoException(serverEverything + " is missing: run `npm ci` in " + home.resolve("node")
                    + " (the Maven build of the examples module does it)");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> javaCommand = List.of(java, "-cp", System.getProperty("java.class.path"),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                JavaToolsServer.class.getName());
        MetaConfig config = MetaConfig.builder()
                .module(ModuleConfig.builder(HOST_INFO).command("python3", "host_info.py")
                        .workdir(home.resolve("modules/host-info")).build())
                .module(ModuleConfig.builder(TEXT_TOOLS).command("python3", "text_tools.py")
                        .workdir(home.resolve("modules/text-tools")).build())
                .module(ModuleConfig.builder(JAVA_TOOLS).command(javaCommand).build())
                .module(ModuleConfig.builder(EVERYTHING).command("node", serverEverything.toString())
                        .workdir(home.resolve("node")).build())
                .discover(HOST_INFO, TEXT_TOOLS, JAVA_TOOLS, EVERYTHING)
                .preSpawn(new PreSpawnData(HOST_INFO, List.of(Map.entry("HOST_INFO_LABEL", HOST_INFO_LABEL))))
                .preSpawn(mcp(TEXT_TOOLS))
                .preSpawn(mcp(JAVA_TOOLS))
                .preSpawn(mcp(EVERYTHING))
                .build();
        out.print(new TextTable("module", "written in", "boundary", "command")
                .row(HOST_INFO, "Python", "event-line", "python3 host_info.py")
                .row(TEXT_TOOLS, "Python", "MCP (stdio)", "python3 text_tools.py")
                .row(JAVA_TOOLS, "Java", "MCP (stdio)", "java -cp <classpath> " + JavaToolsServer.class.getName())
                .row(EVERYTHING, "TypeScript", "MCP (stdio)", "node .../server-everything/dist/index.js")
                .render());
        out.println("  The MCP modules get META_MODULE_BOUNDARY=mcp in their pre-spawn data; the others are event-line.");
        out.println("  host-info also gets HOST_INFO_LABEL=\"" + HOST_INFO_LABEL + "\" before it is spawned.");
        return config;
    }

    private static PreSpawnData mcp(String moduleId) {
        return new PreSpawnData(moduleId, List.of(Map.entry("META_MODULE_BOUNDARY", "mcp")));
    }

    private UnifiedRuntime start(MetaConfig config) {
        heading("Starting the runtime (every module in parallel, each probed once)");
        long started = System.nanoTime();
        UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(RuntimeOptions.defaults())
                .persistentState(stateDir).start();
        try {
            out.printf("  Started in %d ms. Loaded modules: %s%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), runtime.loadedModules());
            showSupervisor(runtime);
            for (String id : List.of(HOST_INFO, TEXT_TOOLS, JAVA_TOOLS, EVERYTHING)) {
                if (!runtime.loadedModules().contains(id)) {
                    ModuleSupervisorReport line = runtime.supervisorReport().get(id);
                    throw new DemoException("module " + id + " did not start"
                            + (line == null ? "" : ": " + line.lastError() + "; stderr: " + line.stderrTail()));
                }
            }
            return runtime;
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
    }

    private void callEventLineModule(UnifiedRuntime runtime) {
        heading("Calling the event-line module host-info (Python)");
        out.println("  Each call spawns host_info.py, reads the one event it prints, and returns its payload.");
        JsonNode payload = call(runtime, HOST_INFO, "snapshot", JSON.createObjectNode());
        if (!HOST_INFO_LABEL.equals(payload.path("label").asText())) {
            throw new DemoException("host-info did not see its pre-spawn data: " + payload);
        }
        pids.add(payload.path("pid").asLong());
        out.println("  The label came from the pre-spawn data: \"" + payload.path("label").asText() + "\"");
    }

    private void callPythonMcpModule(UnifiedRuntime runtime) {
        heading("Calling the MCP module text-tools (Python)");
        JsonNode counts = call(runtime, TEXT_TOOLS, "word_count",
                params("text", "the quick brown fox\njumps over the lazy dog"));
        expect(counts.path("words").asInt() == 9, TEXT_TOOLS, "word_count", counts);
        JsonNode reversed = call(runtime, TEXT_TOOLS, "reverse", params("text", "meta-runtime"));
        expect("emitnur-atem".equals(reversed.asText()), TEXT_TOOLS, "reverse", reversed);
    }

    private void callJavaMcpModule(UnifiedRuntime runtime) {
        heading("Calling the MCP module java-tools (Java, meta-module SDK server in a child JVM)");
        JsonNode digest = call(runtime, JAVA_TOOLS, "sha256", params("text", "hello"));
        expect("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824".equals(digest.asText()),
                JAVA_TOOLS, "sha256", digest);
        ObjectNode numbers = JSON.createObjectNode();
        numbers.putArray("numbers").add(3).add(1).add(4).add(1).add(5).add(9).add(2).add(6);
        JsonNode stats = call(runtime, JAVA_TOOLS, "stats", numbers);
        expect(stats.path("count").asInt() == 8 && stats.path("sum").asDouble() == 31.0, JAVA_TOOLS, "stats", stats);
    }

    private void callNpmMcpModule(UnifiedRuntime runtime) {
        heading("Calling the MCP module everything (@modelcontextprotocol/server-everything from npm)");
        JsonNode echo = call(runtime, EVERYTHING, "echo", params("message", "hello from the JVM"));
        expect(echo.asText().contains("hello from the JVM"), EVERYTHING, "echo", echo);
        ObjectNode operands = JSON.createObjectNode().put("a", 19).put("b", 23);
        JsonNode sum = call(runtime, EVERYTHING, "get-sum", operands);
        expect(sum.asText().contains("42"), EVERYTHING, "get-sum", sum);
    }

    private void showTypedError(UnifiedRuntime runtime) {
        heading("A failed call is a typed error value");
        try {
            ModuleRouteResponse response = runtime.routeModuleCall(
                    new ModuleRouteRequest(TEXT_TOOLS, "translate", params("text", "hola")), CALL_TIMEOUT);
            throw new DemoException("text-tools answered an unknown tool: " + response.payload());
        } catch (ModuleRouteException e) {
            out.println("  text-tools.translate(...) failed: " + e.getMessage());
            out.println("  error value: " + e.error());
        }
    }

    private void crashAndRestart(UnifiedRuntime runtime) {
        heading("Supervision: text-tools crashes and is restarted");
        ModuleSupervisorReport before = report(runtime, TEXT_TOOLS);
        out.printf("  text-tools is %s with pid %s. Calling its crash tool (the process exits with code 3)...%n",
                state(before.state()), pid(before.pid()));
        try {
            ModuleRouteResponse response = runtime.routeModuleCall(
                    new ModuleRouteRequest(TEXT_TOOLS, "crash", JSON.createObjectNode().put("exit_code", 3)),
                    CALL_TIMEOUT);
            throw new DemoException("the crash tool answered instead of crashing: " + response.payload());
        } catch (ModuleRouteException e) {
            out.println("  The call failed at once: " + e.getMessage());
        }
        ModuleSupervisorReport after = awaitRestarted(runtime, TEXT_TOOLS, before.pid());
        out.printf("  text-tools is %s again: new pid %s, restarts so far %d.%n",
                state(after.state()), pid(after.pid()), after.restarts());
        JsonNode reversed = call(runtime, TEXT_TOOLS, "reverse", params("text", "back again"));
        expect("niaga kcab".equals(reversed.asText()), TEXT_TOOLS, "reverse", reversed);
        out.println("  The restarted module answers again.");
    }

    private void showTransitions(List<ModuleHealthTransition> transitions) {
        heading("Health transitions (in order)");
        TextTable table = new TextTable("module", "from", "to", "attempt");
        for (ModuleHealthTransition t : transitions) {
            table.row(t.moduleId(), t.from() == null ? "-" : state(t.from()), state(t.to()), t.attempt());
        }
        out.print(table.render());
    }

    private void showEventLog(UnifiedRuntime runtime) {
        heading("Merged event log (module, runtime and agent events in one order)");
        runtime.ingestAgentEvent(new EventEnvelope<>("evt-demo-agent-1", "agent", System.currentTimeMillis(),
                new UnifiedEvent.Agent("demo-host", "run_completed", JSON.createObjectNode().put("modules_called", 4))));
        out.println("  The host added one agent event of its own (ingestAgentEvent); the log shows it with the rest.");
        history.printMerged(runtime.mergedEvents());
    }

    private void showEarlierRuns(UnifiedRuntime runtime) {
        heading("Event history from earlier runs (the event log in " + stateDir + ")");
        history.printEarlierRuns(runtime.eventLog().orElseThrow());
    }

    private void showShutdown(RuntimeShutdownReport report) {
        out.print(new TextTable("terminated modules", "orphan processes")
                .row(String.join(", ", report.terminatedModules()), report.orphanProcesses())
                .render());
        List<Long> alive = new ArrayList<>();
        for (long pid : pids) {
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                alive.add(pid);
            }
        }
        out.printf("  Module processes seen during the demo: %d; still running: %d.%n", pids.size(), alive.size());
        if (!alive.isEmpty() || report.orphanProcesses() != 0) {
            throw new DemoException("processes outlived the runtime: " + alive + ", orphans "
                    + report.orphanProcesses());
        }
    }

    // ----------------------------------------------------------------------------------------- helpers

    private void heading(String title) {
        step++;
        out.println();
        out.println(step + ". " + title);
    }

    private void showSupervisor(UnifiedRuntime runtime) {
        TextTable table = new TextTable("module", "state", "attempt", "pid");
        for (ModuleSupervisorReport line : runtime.supervisorReport().values()) {
            line.pid().ifPresent(pids::add);
            table.row(line.moduleId(), state(line.state()), line.attempt(), pid(line.pid()));
        }
        out.print(table.render());
    }

    private JsonNode call(UnifiedRuntime runtime, String moduleId, String method, JsonNode params) {
        try {
            ModuleRouteResponse response =
                    runtime.routeModuleCall(new ModuleRouteRequest(moduleId, method, params), CALL_TIMEOUT);
            out.println("  " + moduleId + "." + method + "(" + params + ")");
            out.println("    -> " + response.payload());
            return response.payload();
        } catch (ModuleRouteException e) {
            throw new DemoException(e.getMessage(), e);
        }
    }

    private static void expect(boolean ok, String moduleId, String method, JsonNode payload) {
        if (!ok) {
            throw new DemoException(moduleId + "." + method + " answered something unexpected: " + payload);
        }
    }

    private ModuleSupervisorReport awaitRestarted(UnifiedRuntime runtime, String moduleId, OptionalLong oldPid) {
        long started = System.nanoTime();
        long deadline = started + RESTART_WAIT.toNanos();
        while (true) {
            ModuleSupervisorReport line = report(runtime, moduleId);
            if (line.state() == ModuleHealthState.HEALTHY && line.pid().isPresent() && !line.pid().equals(oldPid)) {
                pids.add(line.pid().getAsLong());
                out.printf("  Waited %d ms for the supervisor to notice the exit and restart the module.%n",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                return line;
            }
            if (line.state() == ModuleHealthState.STOPPED || System.nanoTime() - deadline > 0) {
                throw new DemoException(moduleId + " did not come back within " + RESTART_WAIT.toSeconds()
                        + " s (state " + state(line.state()) + ", last error: " + line.lastError() + ")");
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    private static ModuleSupervisorReport report(UnifiedRuntime runtime, String moduleId) {
        ModuleSupervisorReport line = runtime.supervisorReport().get(moduleId);
        if (line == null) {
            throw new DemoException("the supervisor has no report for " + moduleId);
        }
        return line;
    }

    private static ObjectNode params(String key, String value) {
        return JSON.createObjectNode().put(key, value);
    }

    private static String state(ModuleHealthState state) {
        return state.jsonName();
    }

    private static String pid(OptionalLong pid) {
        return pid.isPresent() ? Long.toString(pid.getAsLong()) : "-";
    }

    /** The examples directory: {@code dir/examples} when it exists (run from the clone), else {@code dir}. */
    static Path findHome(Path dir) {
        Path nested = dir.resolve("examples");
        if (Files.isDirectory(nested.resolve("modules"))) {
            return nested;
        }
        if (Files.isDirectory(dir.resolve("modules"))) {
            return dir;
        }
        throw new DemoException("cannot find the examples directory (with modules/) from " + dir
                + "; pass it as the argument");
    }
}
