package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ProcessLeaks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A host JVM with live children ends in three ways: it calls {@code System.exit}, it gets SIGTERM, it gets SIGKILL.
 * The host (a separate JVM started with the test classpath) runs two persistent MCP servers, which exit on the end of
 * their stdin, an event-line module whose kept child (a shell) has a grandchild and ignores the end of stdin, and an
 * event-line module whose kept child ignores both the end of stdin and SIGTERM. Even after SIGKILL, when no hook
 * runs, the host's watchdog kills every one of them and then exits itself.
 * {@link ShutdownHookTest} covers a host that exits with one event-line child.
 */
@Timeout(90)
class HostShutdownTest {

    private static final Logger LOG = LoggerFactory.getLogger(HostShutdownTest.class);

    /** The graces the host's runtime uses; the JVM hook stops every child within their sum (plus the pass over /proc). */
    static final Duration STDIN_GRACE = Duration.ofMillis(300);
    static final Duration TERM_GRACE = Duration.ofMillis(700);
    static final Duration KILL_WAIT = Duration.ofSeconds(2);
    /** How long the host may take to exit once told to: the graces plus a generous margin for a loaded machine. */
    static final Duration EXIT_BOUND = STDIN_GRACE.plus(TERM_GRACE).plus(KILL_WAIT).plus(Duration.ofSeconds(15));

    /** The host: starts the runtime, prints {@code ready}, then exits ({@code exit}) or waits to be signalled. */
    public static final class Host {
        public static void main(String[] args) throws InterruptedException {
            String python = args[0];
            Path dir = Path.of(args[1]);
            MetaConfig config = MetaConfig.builder()
                    .module(mcp(python, dir, "server1")).module(mcp(python, dir, "server2"))
                    .module(ModuleConfig.builder("tree").command("sh", SoakSupport.script("cycle_child.sh").toString(),
                            "event").env("FIXTURE_PIDFILE", dir.resolve("pids-tree").toString()).env("FIXTURE_MODULE", "tree")
                            .build())
                    .module(ModuleConfig.builder("stubborn").command("sh",
                            SoakSupport.script("cycle_child.sh").toString(), "stubborn-event")
                            .env("FIXTURE_PIDFILE", dir.resolve("pids-stubborn").toString())
                            .env("FIXTURE_MODULE", "stubborn").build())
                    .discover("server1", "server2", "tree", "stubborn")
                    .preSpawn(PreSpawnData.mcp("server1")).preSpawn(PreSpawnData.mcp("server2")).build();
            UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(RuntimeOptions.builder()
                    .stopStdinGrace(STDIN_GRACE).stopTermGrace(TERM_GRACE).stopKillWait(KILL_WAIT).build()).start();
            System.out.println("ready " + runtime.loadedModules());
            System.out.flush();
            if (args[2].equals("exit")) {
                System.exit(0);
            }
            Thread.sleep(Long.MAX_VALUE);
        }

        private static ModuleConfig mcp(String python, Path dir, String id) {
            return ModuleConfig.builder(id).command(python, FixtureScripts.mcpServer().toString(), "--pid-file",
                    dir.resolve("pids-" + id).toString()).build();
        }
    }

    @TempDir
    Path dir;

    private Process host;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pids-server1"))
            .pidFile(() -> dir.resolve("pids-server2")).pidFile(() -> dir.resolve("pids-tree"))
            .pidFile(() -> dir.resolve("pids-stubborn"));

    @AfterEach
    void stopWhatAFailedTestLeft() {
        if (host != null) {
            host.destroyForcibly();
        }
        all().stream().filter(SoakSupport::alive).forEach(p -> ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly));
    }

    private List<ProcessLeaks.Spawned> spawned(String id) {
        return SoakSupport.spawned(dir.resolve("pids-" + id));
    }

    private List<ProcessLeaks.Spawned> all() {
        List<ProcessLeaks.Spawned> all = new ArrayList<>(spawned("server1"));
        all.addAll(spawned("server2"));
        all.addAll(spawned("tree"));
        all.addAll(spawned("stubborn"));
        return all;
    }

    /** Starts the host and waits for its {@code ready} line; the rest of its output is collected in the background. */
    private CompletableFuture<String> startHost(String mode) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        host = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Host.class.getName(),
                Fixtures.python(), dir.toString(), mode).redirectErrorStream(true).start();
        BufferedReader reader = new BufferedReader(new InputStreamReader(host.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder before = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            before.append(line).append('\n');
            if (line.startsWith("ready ")) {
                assertThat(line).isEqualTo("ready [server1, server2, tree, stubborn]");
                break;
            }
        }
        assertThat(line).as("the host never got ready:\n%s", before).isNotNull();
        return CompletableFuture.supplyAsync(() -> before + reader.lines().collect(Collectors.joining("\n")));
    }

    private void assertStarted() {
        assertThat(spawned("server1")).hasSize(1);
        assertThat(spawned("server2")).hasSize(1);
        assertThat(spawned("tree")).hasSize(2);
        assertThat(spawned("stubborn")).hasSize(1);
        assertThat(all()).allMatch(SoakSupport::alive);
    }

    /** The host exits within {@link #EXIT_BOUND} and its hook reports every module stopped with no orphan. */
    private void assertHookStoppedEverything(CompletableFuture<String> output, int exitCode, long sinceNanos)
            throws Exception {
        assertThat(host.waitFor(EXIT_BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        LOG.info("host shutdown: exit code {} after {} ms", exitCode, (System.nanoTime() - sinceNanos) / 1_000_000);
        String text = output.get(10, TimeUnit.SECONDS);
        assertThat(host.exitValue()).as(text).isEqualTo(exitCode);
        Matcher report = Pattern.compile("RuntimeShutdownReport\\[terminatedModules=\\[([^]]*)], orphanProcesses=0]")
                .matcher(text);
        assertThat(report.find()).as(text).isTrue();
        assertThat(report.group(1).split(", ")).containsExactlyInAnyOrder("server1", "server2", "tree", "stubborn");
        // gone as the host exits: at most the moment init takes to reap a killed orphan
        SoakSupport.assertAllGone(all(), Duration.ofSeconds(2));
    }

    @Test
    void systemExitStopsEveryChildAndGrandchild() throws Exception {
        CompletableFuture<String> output = startHost("exit");
        assertHookStoppedEverything(output, 0, System.nanoTime());
        assertThat(all()).hasSize(5);
    }

    @Test
    void sigtermStopsEveryChildAndGrandchild() throws Exception {
        CompletableFuture<String> output = startHost("wait");
        assertStarted();
        ProcessHandle watchdog = watchdogOf(spawned("server1").get(0));
        long signalled = System.nanoTime();
        host.toHandle().destroy();   // Process.destroy() would also close the streams the output is read from
        assertHookStoppedEverything(output, 143, signalled);
        await().atMost(Duration.ofSeconds(10)).until(() -> !watchdog.isAlive());
    }

    /**
     * After SIGKILL nothing runs in the host: its watchdog sees the host's end of their FIFO close and kills every
     * process carrying the host's token (the MCP servers, the event-line children, the grandchild), then exits.
     */
    @Test
    void afterSigkillTheWatchdogKillsEveryChildAndGrandchildAndExits() throws Exception {
        CompletableFuture<String> output = startHost("wait");
        assertStarted();
        ProcessHandle watchdog = watchdogOf(spawned("server1").get(0));
        long killed = System.nanoTime();
        host.toHandle().destroyForcibly();
        SoakSupport.assertAllGone(all(), Duration.ofSeconds(10));
        LOG.info("host SIGKILL: every child and grandchild gone after {} ms", (System.nanoTime() - killed) / 1_000_000);
        assertThat(host.waitFor(EXIT_BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        output.get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> !watchdog.isAlive());
    }

    /** The host's watchdog: the process whose argv holds the host token that {@code child} inherited. */
    private static ProcessHandle watchdogOf(ProcessLeaks.Spawned child) throws IOException {
        String environ = Files.readString(Path.of("/proc", Long.toString(child.pid()), "environ"),
                StandardCharsets.UTF_8);
        String token = Arrays.stream(environ.split("\0")).filter(v -> v.startsWith("META_HOST_TOKEN="))
                .map(v -> v.substring("META_HOST_TOKEN=".length())).findFirst().orElseThrow();
        List<ProcessHandle> found = ProcessHandle.allProcesses().filter(p -> {
            try {
                List<String> argv = Arrays.asList(Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"),
                        StandardCharsets.UTF_8).split("\0"));
                return argv.contains("meta-runtime-watchdog") && argv.contains(token);
            } catch (IOException gone) {
                return false;
            }
        }).collect(Collectors.toList());
        assertThat(found).as("the watchdog of host token %s", token).hasSize(1);
        return found.get(0);
    }
}
