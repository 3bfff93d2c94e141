package org.metaruntime.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.metaruntime.core.ConfigException;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.core.testing.FakeEventLineModule;
import org.metaruntime.core.testing.FakeMcpModule;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.Python;

/**
 * Runs test classes that use {@link MetaRuntimeTest} through the JUnit Platform and checks what they saw and how
 * they ended. The classes run are nested here; they run only through the engine test kit.
 */
@Timeout(120)
class MetaRuntimeExtensionTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(20);

    /** What the nested classes saw, read by the outer tests. */
    static final List<UnifiedRuntime> RUNTIMES = new CopyOnWriteArrayList<>();
    static final List<Long> PIDS = new CopyOnWriteArrayList<>();
    static volatile Path work;

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        RUNTIMES.clear();
        PIDS.clear();
        work = dir;
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private static Events run(Class<?> testClass) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute().testEvents();
    }

    // ------------------------------------------------------------------------------------------ fakes, injection

    /** Declares the annotation and a source for its subclasses. */
    @MetaRuntimeTest
    abstract static class WithTicker {
        @ModuleSource
        static List<Object> more() {
            return List.of(FakeEventLineModule.builder("ticker").build());
        }
    }

    static class FakesInjected extends WithTicker {
        @ModuleSource
        final FakeMcpModule weather = FakeMcpModule.builder("weather")
                .tool("forecast", args -> TextNode.valueOf("sunny")).build();

        @InjectRuntime
        UnifiedRuntime runtime;

        @BeforeEach
        void started(UnifiedRuntime same) {
            assertThat(same).isSameAs(runtime);
            assertThat(runtime.loadedModules()).containsExactlyInAnyOrder("weather", "ticker");
        }

        @Test
        void first(UnifiedRuntime same) {
            forecast(same);
        }

        @Test
        void second(UnifiedRuntime same) {
            forecast(same);
        }

        private void forecast(UnifiedRuntime same) {
            assertThat(same).isSameAs(runtime);
            RUNTIMES.add(runtime);
            runtime.routeModuleCall(new ModuleRouteRequest("weather", "forecast", MAPPER.createObjectNode()), T);
            assertThat(weather.callCount()).isEqualTo(1);
        }

        @AfterEach
        void stillRunning(UnifiedRuntime same) {
            assertThat(same).isSameAs(runtime);
            assertThat(same.shutdownReport()).isEmpty();
        }
    }

    @Test
    void eachTestGetsItsOwnRuntimeWithTheFakesItAndItsSuperclassDeclareClosedAfterIt() {
        run(FakesInjected.class).assertStatistics(stats -> stats.started(2).succeeded(2).failed(0));
        assertThat(RUNTIMES).hasSize(2).doesNotHaveDuplicates()
                .allSatisfy(runtime -> assertThat(runtime.shutdownReport()).isPresent());
    }

    // ---------------------------------------------------------------------------------- real module processes

    @MetaRuntimeTest
    static class RealModule {
        @ModuleSource
        static ModuleConfig echo() {
            return ModuleConfig.builder("echo").command(FixtureScripts.mcpServerCommand()).build();
        }

        @Test
        void calls(UnifiedRuntime runtime) throws IOException {
            var response = runtime.routeModuleCall(new ModuleRouteRequest("echo", "echo",
                    MAPPER.createObjectNode().put("text", "héllo 🎉")), T);
            assertThat(response.payload().toString()).contains("héllo 🎉");
            long pid = runtime.supervisorReport().get("echo").pid().orElseThrow();
            PIDS.add(pid);
            String environ = Files.readString(Path.of("/proc", Long.toString(pid), "environ"),
                    StandardCharsets.UTF_8);
            assertThat(List.of(environ.split("\0"))).anyMatch(entry -> entry.matches(
                    MetaRuntimeExtension.RUN_VARIABLE + "=[0-9a-f-]{36}"));
        }
    }

    @Test
    void aModuleProcessCarriesTheRunVariableAndIsGoneAfterTheTest() {
        Python.executable();
        run(RealModule.class).assertStatistics(stats -> stats.succeeded(1).failed(0));
        assertThat(PIDS).hasSize(1);
        assertThat(ProcessLeaks.isAlive(PIDS.get(0))).isFalse();
    }

    // --------------------------------------------------------------------------------------------- leak check

    /** The module double-forks a sleeper that keeps only the run variable: found by its environment. */
    @MetaRuntimeTest
    static class LeavesAMarkedSleeper {
        @ModuleSource
        static ModuleConfig leaky() {
            return leakyModule("keep-marker");
        }

        @Test
        void leaves(UnifiedRuntime runtime) {
            assertThat(runtime.loadedModules()).containsExactly("leaky");
        }
    }

    /**
     * The module's go-between holds a sleeper with an empty environment as the module's descendant when the runtime
     * has started, then exits: the sleeper is re-parented and carries nothing of the runtime.
     */
    @MetaRuntimeTest
    static class LeavesAnUnmarkedSleeper {
        @ModuleSource
        static ModuleConfig leaky() {
            return leakyModule("drop-env");
        }

        @Test
        void leaves(UnifiedRuntime runtime) throws IOException {
            long sleeper = sleeperPid();
            long module = runtime.supervisorReport().get("leaky").pid().orElseThrow();
            Files.createFile(work.resolve("release"));
            await().atMost(T).until(() -> ProcessHandle.of(module).orElseThrow().descendants()
                    .noneMatch(p -> p.pid() == sleeper));
        }
    }

    static ModuleConfig leakyModule(String mode) {
        List<String> command = new ArrayList<>(List.of(Python.executable(), script("leaky_module.py").toString(),
                mode, work.resolve("sleeper.pid").toString(), work.resolve("release").toString(),
                FixtureScripts.mcpServer().toString()));
        return ModuleConfig.builder("leaky").command(command).build();
    }

    static long sleeperPid() throws IOException {
        return Long.parseLong(Files.readString(work.resolve("sleeper.pid")).strip());
    }

    private static Path script(String name) {
        try {
            return Path.of(MetaRuntimeExtensionTest.class.getResource(name).toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aProcessLeftBehindWithTheRunVariableFailsTheTestAndIsKilled() throws IOException {
        assertLeakReported(LeavesAMarkedSleeper.class);
    }

    @Test
    void aProcessSeenAsADescendantFailsTheTestEvenAfterItDroppedTheEnvironment() throws IOException {
        assertLeakReported(LeavesAnUnmarkedSleeper.class);
    }

    private void assertLeakReported(Class<?> testClass) throws IOException {
        Python.executable();
        Events events = run(testClass);
        long sleeper = sleeperPid();
        try {
            events.assertStatistics(stats -> stats.failed(1));
            events.assertThatEvents().haveExactly(1, event(test("leaves"), finishedWithFailure(
                    instanceOf(AssertionError.class), message(m -> m.contains("still alive")
                            && m.contains("pid " + sleeper + ": sleep 300")))));
            ProcessLeaks.assertDead(ProcessHandle.of(sleeper).orElseThrow(() -> new AssertionError("no sleeper")));
        } finally {
            ProcessHandle.of(sleeper).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    // -------------------------------------------------------------------------------------------- manual time

    @MetaRuntimeTest(manualTime = true)
    static class ManualTime {
        @ModuleSource
        final FakeMcpModule flaky = FakeMcpModule.builder("flaky").tool("ping", args -> args).build();

        @Test
        void restartsWhenTheTestAdvancesTime(UnifiedRuntime runtime, ManualScheduler scheduler, ManualClock clock) {
            assertThat(scheduler.clock()).isSameAs(clock);
            assertThat(clock.instant()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
            flaky.crash(1, "boom");
            await().atMost(T).until(() -> scheduler.pendingCount() == 1);
            assertThat(state(runtime)).isEqualTo(ModuleHealthState.RESTARTING);
            scheduler.advance(scheduler.pendingDelays().get(0));
            await().atMost(T).until(() -> state(runtime) == ModuleHealthState.HEALTHY);
            assertThat(runtime.moduleHealthTransitions()).last()
                    .satisfies(t -> assertThat(t.to()).isEqualTo(ModuleHealthState.HEALTHY));
        }

        private static ModuleHealthState state(UnifiedRuntime runtime) {
            ModuleSupervisorReport report = runtime.supervisorReport().get("flaky");
            return report.state();
        }
    }

    @Test
    void manualTimeGivesTheRuntimesSchedulerAndClock() {
        run(ManualTime.class).assertStatistics(stats -> stats.succeeded(1).failed(0));
    }

    @MetaRuntimeTest
    static class AsksForTheSchedulerWithoutManualTime {
        @Test
        void needsTheScheduler(ManualScheduler scheduler) {
        }

        @Test
        void needsTheClock(ManualClock clock) {
        }
    }

    @Test
    void withoutManualTimeTheSchedulerAndClockAreNotResolved() {
        Events events = run(AsksForTheSchedulerWithoutManualTime.class);
        events.assertStatistics(stats -> stats.failed(2));
        events.assertThatEvents().haveExactly(2, event(finishedWithFailure(
                instanceOf(ParameterResolutionException.class), message(m -> m.contains("manualTime = true")))));
    }

    // ------------------------------------------------------------------------------------------ bad configuration

    @MetaRuntimeTest
    static class FailsToStart {
        @ModuleSource
        static MetaConfig config() {
            return MetaConfig.builder().discover("nowhere").build();
        }

        @Test
        void neverRuns() {
            throw new AssertionError("the test ran without a runtime");
        }
    }

    @Test
    void aRuntimeThatFailsToStartFailsTheTest() {
        Events events = run(FailsToStart.class);
        events.assertStatistics(stats -> stats.failed(1));
        events.assertThatEvents().haveExactly(1, event(finishedWithFailure(instanceOf(ConfigException.class),
                message(m -> m.contains("nowhere")))));
    }

    @MetaRuntimeTest
    static class WrongSource {
        @ModuleSource
        final String modules = "weather";

        @Test
        void neverRuns() {
        }
    }

    @Test
    void aSourceOfAnotherTypeFailsTheTestNamingIt() {
        Events events = run(WrongSource.class);
        events.assertThatEvents().haveExactly(1, event(finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class),
                message(m -> m.contains("WrongSource.modules") && m.contains("java.lang.String")))));
    }

    // --------------------------------------------------------------------------------------------- manifests

    @MetaRuntimeTest(manifests = "src/test/pods")
    static class FromManifests {
        @Test
        void callsThePods(UnifiedRuntime runtime) {
            assertThat(runtime.loadedModules()).containsExactlyInAnyOrder("pod-echo", "pod-lazy");
            assertThat(runtime.supervisorReport().get("pod-lazy").pid()).as("a lazy pod before its first call")
                    .isEmpty();
            for (String pod : List.of("pod-echo", "pod-lazy")) {
                var response = runtime.routeModuleCall(new ModuleRouteRequest(pod, "echo",
                        MAPPER.createObjectNode().put("text", "from a manifest")), T);
                assertThat(response.payload().toString()).contains("from a manifest");
                PIDS.add(runtime.supervisorReport().get(pod).pid().orElseThrow());
            }
        }
    }

    @Test
    void manifestsFoldersAreModules() {
        Python.executable();
        run(FromManifests.class).assertStatistics(stats -> stats.succeeded(1).failed(0));
        assertThat(PIDS).hasSize(2).allSatisfy(pid -> assertThat(ProcessLeaks.isAlive(pid)).isFalse());
    }

    @MetaRuntimeTest(manifests = "src/test/no-such-folder")
    static class MissingManifests {
        @Test
        void neverRuns() {
        }
    }

    @Test
    void aMissingManifestFolderFailsTheTest() {
        run(MissingManifests.class).assertThatEvents().haveExactly(1, event(finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class), message(m -> m.contains("no-such-folder")))));
    }

}
