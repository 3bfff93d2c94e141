package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The client side of the gateway comparisons: {@code benchmarks/node/gateway-bench.mjs}, one run per call. */
final class NodeBench {

    static final ObjectMapper JSON = new ObjectMapper();
    static final int IN_FLIGHT = 64;

    private final Path nodeDir;

    NodeBench(Path nodeDir) {
        this.nodeDir = nodeDir;
    }

    Path dir() {
        return nodeDir;
    }

    /** Runs {@code gateway-bench.mjs mode spec count 64}; returns the JSON line it printed. */
    JsonNode run(String mode, String spec, int count) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("node", nodeDir.resolve("gateway-bench.mjs").toString(), mode, spec,
                Integer.toString(count), Integer.toString(IN_FLIGHT))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().close();
        String out;
        try (InputStream s = p.getInputStream()) {
            out = new String(s.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("node gateway-bench " + mode + " " + spec + " failed: " + out);
        }
        return JSON.readTree(out.substring(out.lastIndexOf('\n') + 1));
    }

    /** Runs {@code npm ci} in the node folder unless {@code marker} (a path under node_modules) is there. */
    void ensureNodeModules(String marker) throws IOException, InterruptedException {
        if (Files.exists(nodeDir.resolve("node_modules").resolve(marker))) {
            return;
        }
        Process p = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(nodeDir.toFile()).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("npm ci failed in " + nodeDir);
        }
    }

    /** The real interpreter behind {@code python3} (a pyenv shim adds ~110 ms to every spawn). */
    static String realPython() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").start();
        String path = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0 || path.isEmpty()) {
            throw new IllegalStateException("python3 not found");
        }
        return path;
    }
}
