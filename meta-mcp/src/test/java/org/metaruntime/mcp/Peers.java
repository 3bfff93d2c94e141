package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.metaruntime.mcp.testpeers.JavaSdkServer;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.Tools;

/** Builds process specs for the three test peers and checks that their processes are gone. */
final class Peers {

    static final Path EVERYTHING = Path.of("src", "test", "node", "node_modules", "@modelcontextprotocol",
            "server-everything", "dist", "index.js").toAbsolutePath();

    private Peers() {
    }

    /** The python MCP server fixture with {@code switches}; its pid is appended to {@code pidFile}. */
    static ProcessSpec python(String moduleId, Path pidFile, String... switches) {
        List<String> command = new ArrayList<>(List.of("--pid-file", pidFile.toString()));
        command.addAll(List.of(switches));
        return ProcessSpec.builder(moduleId).command(FixtureScripts.mcpServerCommand(command.toArray(String[]::new)))
                .build();
    }

    /** The MCP Java SDK server in a child JVM. */
    static ProcessSpec javaSdk(String moduleId, Path pidFile) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return ProcessSpec.builder(moduleId).command(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Dfile.encoding=UTF-8",
                "-cp", System.getProperty("java.class.path"), JavaSdkServer.class.getName(), pidFile.toString()).build();
    }

    /** {@code @modelcontextprotocol/server-everything}, installed by the build with {@code npm ci}. */
    static ProcessSpec everything(String moduleId) {
        String node = tool("node");
        if (!Files.isRegularFile(EVERYTHING)) {
            throw new AssertionError("server-everything is not installed at " + EVERYTHING + " (the build runs npm ci)");
        }
        return ProcessSpec.builder(moduleId).command(node, EVERYTHING.toString()).build();
    }

    static final Path MODERN_SERVER = Path.of("src", "test", "node", "modern_server.mjs").toAbsolutePath();

    /**
     * The modern test server on the TypeScript SDK v2 ({@code src/test/node/modern_server.mjs}) over stdio, with
     * {@code switches} (e.g. {@code --modern-only}, {@code --marker FILE}).
     */
    static ProcessSpec modern(String moduleId, String... switches) {
        String node = tool("node");
        if (!Files.isDirectory(MODERN_SERVER.resolveSibling(Path.of("node_modules", "@modelcontextprotocol", "server")))) {
            throw new AssertionError("@modelcontextprotocol/server is not installed next to " + MODERN_SERVER
                    + " (the build runs npm ci)");
        }
        List<String> command = new ArrayList<>(List.of(node, MODERN_SERVER.toString()));
        command.addAll(List.of(switches));
        return ProcessSpec.builder(moduleId).command(command.toArray(String[]::new)).build();
    }

    /** The absolute path of {@code name} on PATH; fails when it is missing. */
    static String tool(String name) {
        return Tools.required(name);
    }

    /** The pid the last process appended to {@code pidFile}, once there is one. */
    static long readPid(Path pidFile) {
        await().atMost(Duration.ofSeconds(10)).until(() -> !pidsIn(pidFile).isEmpty());
        List<Long> pids = pidsIn(pidFile);
        return pids.get(pids.size() - 1);
    }

    /** The pids in {@code pidFile}; none while it is missing or its first line is half written. */
    private static List<Long> pidsIn(Path pidFile) {
        try {
            return ProcessLeaks.pidsIn(pidFile);
        } catch (NumberFormatException | UncheckedIOException e) {
            return List.of();
        }
    }

    /**
     * Waits until the process written to {@code pidFile} is gone. A child stopped before it wrote its pid file
     * (a slow interpreter start) is checked as one of this JVM's descendants instead.
     */
    static void assertGone(Path pidFile) {
        List<Long> pids = pidsIn(pidFile);
        if (pids.isEmpty()) {
            assertNoProcessLeft();   // not written yet, or half: check the descendants
            return;
        }
        pids.forEach(Peers::assertGone);
    }

    /** Waits until process {@code pid} is gone. */
    static void assertGone(long pid) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                        .as("process %d is still alive", pid).isFalse());
    }

    /** Waits until no process started by this JVM is alive (children, grandchildren). */
    static void assertNoProcessLeft() {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ProcessHandle.current().descendants()
                .filter(ProcessHandle::isAlive).map(h -> h.pid() + " " + h.info().commandLine().orElse("?")))
                .as("processes started by the tests").isEmpty());
    }

    /** The name prefixes of this module's threads and of Reactor's shared schedulers. */
    static final String[] THREADS = {"meta-mcp", "parallel-", "boundedElastic-"};

    /** Threads of this module, or of Reactor's shared schedulers, still alive. */
    static List<String> leftoverThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> List.of(THREADS).stream().anyMatch(n::startsWith)).toList();
    }

    /** The live descendants of {@code pid} now, to check later that they are gone too. */
    static List<Long> descendants(long pid) {
        return ProcessHandle.of(pid).map(h -> h.descendants().map(ProcessHandle::pid).toList()).orElse(List.of());
    }
}
