package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.Subscription;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;
import org.metaruntime.testing.CapturedLogs;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;
import org.slf4j.event.Level;

/** What the runtime logs, as a user reads it: module ids and error codes, never internal class names or stack floods. */
@Timeout(90)
class RuntimeLogsTest {

    private static final Duration T = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private UnifiedRuntime runtime;

    @BeforeEach
    void captureLogs() {
        assertThat(CapturedLogs.installed()).as("the capturing SLF4J binding of the tests").isTrue();
        CapturedLogs.clear();
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pids")).threads("meta-core-");

    @AfterEach
    void close() {
        if (runtime != null) {
            runtime.close();
        }
    }

    /** An MCP server that starts once: each later start exits 5 at once with a line on stderr. */
    private ModuleConfig startsOnce(String id) {
        Path marker = dir.resolve(id + ".started");
        String server = String.join(" ", FixtureScripts.mcpServerCommand("--pid-file", dir.resolve("pids").toString()));
        String script = "if [ -e '" + marker + "' ]; then echo 'refusing a second start' >&2; exit 5; fi; touch '"
                + marker + "'; exec " + server;
        return ModuleConfig.builder(id).command("sh", "-c", script).build();
    }

    private UnifiedRuntime start(MetaConfig config, ManualScheduler scheduler) {
        runtime = UnifiedRuntime.builder(config).scheduler(scheduler)
                .options(RuntimeOptions.builder().startupTimeout(T).shutdownHook(false)
                        .stopStdinGrace(Duration.ofMillis(500)).stopTermGrace(Duration.ofMillis(500)).build())
                .start();
        return runtime;
    }

    private static List<CapturedLogs.Entry> warnings() {
        return CapturedLogs.matching(e -> e.level() == Level.WARN || e.level() == Level.ERROR);
    }

    @Test
    void aFailedRestartIsLoggedWithTheModuleIdTheMessageAndTheCodeNotAnInternalClass() {
        ManualScheduler scheduler = new ManualScheduler();
        UnifiedRuntime runtime = start(MetaConfig.builder().mcp(startsOnce("flaky")).discover("flaky").build(), scheduler);
        runtime.call(new ModuleRouteRequest("flaky", "crash", null), CallOptions.timeout(T)).response()
                .handle((r, e) -> e).join();
        await().atMost(20, TimeUnit.SECONDS).until(() -> scheduler.pendingCount() == 1);
        scheduler.runPending();
        await().atMost(20, TimeUnit.SECONDS).until(() -> runtime.supervisorReport().get("flaky").attempt() == 3);

        List<CapturedLogs.Entry> warnings = warnings();
        assertThat(warnings).extracting(CapturedLogs.Entry::message)
                .anySatisfy(line -> assertThat(line).contains("module 'flaky'").contains("restart attempt 3 failed")
                        .contains("refusing a second start").containsPattern("\\[mcp\\.[a-z_]+]"));
        assertThat(warnings).extracting(CapturedLogs.Entry::rendered)
                .allSatisfy(line -> assertThat(line).doesNotContain("BoundaryFailure").doesNotContain(".internal."));
    }

    @Test
    void aThrowingNotificationListenerIsLoggedWithItsStackOnceThenCounted() {
        ModuleConfig server = ModuleConfig.builder("tools")
                .command(FixtureScripts.mcpServerCommand("--pid-file", dir.resolve("pids").toString())).build();
        UnifiedRuntime runtime = start(MetaConfig.builder().mcp(server).discover("tools").build(), new ManualScheduler());
        McpModule tools = runtime.mcp("tools");
        AtomicInteger calls = new AtomicInteger();
        try (Subscription notifications = tools.subscribeNotifications(n -> {
            calls.incrementAndGet();
            throw new IllegalStateException("listener bug " + calls.get());
        })) {
            for (int i = 1; i <= 4; i++) {
                tools.callTool("notify", com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                        .put("text", "n" + i));
                int expected = i;
                await().atMost(20, TimeUnit.SECONDS).until(() -> calls.get() == expected);
            }
        }

        List<CapturedLogs.Entry> listener = CapturedLogs.matching(e -> e.message().contains("notification listener"));
        assertThat(listener).hasSize(4);
        assertThat(listener.get(0).error()).hasMessage("listener bug 1");
        assertThat(listener.get(0).message()).contains("module 'tools'");
        assertThat(listener.subList(1, listener.size())).allSatisfy(e -> {
            assertThat(e.error()).isNull();
            assertThat(e.message()).contains("module 'tools'").contains("listener bug")
                    .containsPattern("failed \\d+ times");
        });
    }

    @Test
    void aThrowingHealthListenerIsLoggedWithItsStackOnceThenCounted() {
        ManualScheduler scheduler = new ManualScheduler();
        UnifiedRuntime runtime = start(MetaConfig.builder().mcp(startsOnce("flaky")).discover("flaky").build(), scheduler);
        AtomicInteger calls = new AtomicInteger();
        Subscription health = runtime.subscribeHealth(t -> {
            calls.incrementAndGet();
            throw new IllegalStateException("listener bug");
        });
        runtime.call(new ModuleRouteRequest("flaky", "crash", null), CallOptions.timeout(T)).response()
                .handle((r, e) -> e).join();
        await().atMost(20, TimeUnit.SECONDS).until(() -> scheduler.pendingCount() == 1);
        scheduler.runPending();
        await().atMost(20, TimeUnit.SECONDS).until(() -> runtime.supervisorReport().get("flaky").state()
                == ModuleHealthState.RESTARTING || calls.get() >= 4);
        await().atMost(20, TimeUnit.SECONDS).until(() -> calls.get() >= 4);   // (H→F) (F→R) (R→F) (F→R)
        health.close();

        List<CapturedLogs.Entry> listener = CapturedLogs.matching(e -> e.message().contains("health listener"));
        assertThat(listener).hasSize(calls.get());
        assertThat(listener.get(0).error()).hasMessage("listener bug");
        assertThat(listener.subList(1, listener.size())).allSatisfy(e -> {
            assertThat(e.error()).isNull();
            assertThat(e.message()).contains("listener bug").containsPattern("failed \\d+ times");
        });
    }
}
