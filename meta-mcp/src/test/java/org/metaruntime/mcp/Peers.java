package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.metaruntime.mcp.testpeers.JavaSdkServer;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.testing.Tools;

/** Builds process specs for the three test peers and checks that their processes are gone. */
final class Peers {

    static final Path FIXTURE = Path.of("src", "test", "resources", "fixtures", "mcp_server.py").toAbsolutePath();
    static final Path EVERYTHING = Path.of("src", "test", "node", "node_modules", "@modelcontextprotocol",
            "server-everything", "dist", "index.js").toAbsolutePath();

    private Peers() {
    }

    /** The python fixture with {@code switches}; its pid is written to {@code pidFile}. */
    static ProcessSpec python(String moduleId, Path pidFile, String... switches) {
        List<String> command = new ArrayList<>(List.of(tool("python3"), FIXTURE.toString(), "--pid-file", pidFile.toString()));
        command.addAll(List.of(switches));
        return ProcessSpec.builder(moduleId).command(command).build();
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

    /** The absolute path of {@code name} on PATH; fails when it is missing. */
    static String tool(String name) {
        return Tools.required(name);
    }

    static long readPid(Path pidFile) {
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(pidFile) && Files.size(pidFile) > 0);
            return Long.parseLong(Files.readString(pidFile).trim());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Waits until the process written to {@code pidFile} is gone. A child stopped before it wrote its pid file
     * (a slow interpreter start) is checked as one of this JVM's descendants instead.
     */
    static void assertGone(Path pidFile) {
        try {
            if (Files.exists(pidFile) && Files.size(pidFile) > 0) {
                assertGone(Long.parseLong(Files.readString(pidFile).trim()));
                return;
            }
        } catch (IOException | NumberFormatException e) {
            // written half: check the descendants
        }
        assertNoProcessLeft();
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

    /** Threads of this module, or of Reactor's shared schedulers, still alive. */
    static List<String> leftoverThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("meta-mcp") || n.startsWith("parallel-") || n.startsWith("boundedElastic-"))
                .toList();
    }

    /** The live descendants of {@code pid} now, to check later that they are gone too. */
    static List<Long> descendants(long pid) {
        return ProcessHandle.of(pid).map(h -> h.descendants().map(ProcessHandle::pid).toList()).orElse(List.of());
    }
}
