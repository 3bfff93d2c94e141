package org.metaruntime.benchmarks.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The node side of a comparison: runs a client script of {@code benchmarks/node} (which times its calls with
 * {@code timing.mjs}) once per measurement and reads the JSON line it prints. Thread-safe.
 *
 * <pre>{@code
 * NodeBench node = new NodeBench(repo.resolve("benchmarks/node"));
 * node.ensureNodeModules("@modelcontextprotocol/sdk");
 * double us = node.run("bench-client.mjs", "warm", 5000, python, server).get("usPerCall").asDouble();
 * }</pre>
 */
public final class NodeBench {

    public static final ObjectMapper JSON = new ObjectMapper();

    private final Path nodeDir;

    public NodeBench(Path nodeDir) {
        this.nodeDir = nodeDir;
    }

    public Path dir() {
        return nodeDir;
    }

    /**
     * Runs {@code node <script> <mode> <target...> <count> 64} (64: {@link Timing#IN_FLIGHT}); returns the JSON line it
     * printed last.
     */
    public JsonNode run(String script, String mode, int count, String... target) throws IOException, InterruptedException {
        return run(script, mode, count, Timing.IN_FLIGHT, target);
    }

    /** Runs {@code node <script> <mode> <target...> <count> <inFlight>}; returns the JSON line it printed last. */
    public JsonNode run(String script, String mode, int count, int inFlight, String... target)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("node", nodeDir.resolve(script).toString(), mode));
        command.addAll(List.of(target));
        command.add(Integer.toString(count));
        command.add(Integer.toString(inFlight));
        Process p = new ProcessBuilder(command).directory(nodeDir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().close();
        String out;
        try (InputStream s = p.getInputStream()) {
            out = new String(s.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("node " + script + " " + mode + " failed: " + out);
        }
        return JSON.readTree(out.substring(out.lastIndexOf('\n') + 1));
    }

    /** Runs {@code npm ci} in the node folder unless {@code marker} (a path under node_modules) is there. */
    public void ensureNodeModules(String marker) throws IOException, InterruptedException {
        if (Files.exists(nodeDir.resolve("node_modules").resolve(marker))) {
            return;
        }
        Process p = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(nodeDir.toFile()).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("npm ci failed in " + nodeDir);
        }
    }

    /** The real interpreter behind {@code python3} (a pyenv shim adds ~110 ms to every spawn). */
    public static String realPython() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").start();
        String path = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0 || path.isEmpty()) {
            throw new IllegalStateException("python3 not found");
        }
        return path;
    }
}
