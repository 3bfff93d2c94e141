package org.metaruntime.benchmarks.gateway;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaruntime.benchmarks.harness.Options;

/**
 * How long an MCP client waits for a fresh {@code bin/meta-gateway} over stdio: from spawning the process to reading
 * the answer to its first request, {@code initialize} (2025-11-25) or {@code server/discover} (2026-07-28), on an empty
 * manifests folder. Three ways of starting the same jar, interleaved start by start: {@code bin/meta-gateway} as users
 * run it (with the class-data-sharing archive the build makes), {@code java -jar} with that archive, and
 * {@code java -jar} without it. Prints the median, the 10th and 90th percentiles of each.
 *
 * <p>Run (after {@code mvn -B -pl meta-gateway,benchmarks -am package -DskipTests}):
 * {@code java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.GatewayStartup --starts 20}
 */
public final class GatewayStartup {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"startup\",\"version\":\"1\"}}}";
    private static final String DISCOVER = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":"
            + "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientInfo\":"
            + "{\"name\":\"startup\",\"version\":\"1\"},\"io.modelcontextprotocol/clientCapabilities\":{}}}}";

    private GatewayStartup() {
    }

    public static void main(String[] args) throws Exception {
        Options opts = Options.parse(GatewayStartup.class, args, "starts", "20", "repo", ".");
        Path repo = opts.path("repo").toAbsolutePath().normalize();
        Path jar = repo.resolve("meta-gateway/target/meta-gateway.jar");
        Path archive = repo.resolve("meta-gateway/target/meta-gateway.jsa");
        if (!Files.isRegularFile(archive)) {
            throw new IllegalStateException("no class archive at " + archive + ": build meta-gateway first");
        }
        Path empty = Files.createTempDirectory("gateway-startup");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Map<String, List<String>> ways = new LinkedHashMap<>();
        ways.put("bin/meta-gateway", List.of(repo.resolve("bin/meta-gateway").toString(), "--manifests", empty.toString()));
        ways.put("java -jar, archive", List.of(java, "-XX:SharedArchiveFile=" + archive, "-Xlog:disable",
                "-Xlog:all=warning:stderr", "-jar", jar.toString(), "--manifests", empty.toString()));
        ways.put("java -jar, no archive", List.of(java, "-jar", jar.toString(), "--manifests", empty.toString()));
        Map<String, List<Double>> times = new LinkedHashMap<>();
        int starts = opts.integer("starts");
        for (int i = -2; i < starts; i++) { // two untimed starts warm the page cache
            for (Map.Entry<String, List<String>> way : ways.entrySet()) {
                for (String request : List.of(INITIALIZE, DISCOVER)) {
                    double ms = firstAnswerMs(way.getValue(), request);
                    if (i >= 0) {
                        times.computeIfAbsent(way.getKey() + (request == INITIALIZE ? ", initialize" : ", server/discover"),
                                k -> new ArrayList<>()).add(ms);
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%-44s %8s %8s %8s%n", "spawn -> first answer, " + starts + " starts", "p10 ms",
                "median", "p90 ms");
        times.forEach((name, ms) -> {
            ms.sort(null);
            System.out.printf(Locale.ROOT, "%-44s %8.0f %8.0f %8.0f%n", name, ms.get(ms.size() / 10),
                    ms.get(ms.size() / 2), ms.get(ms.size() * 9 / 10));
        });
        try (var files = Files.list(empty)) {
            files.forEach(f -> f.toFile().delete());
        }
        Files.delete(empty);
    }

    /** Spawns {@code command}, writes {@code request} and reads the first line of stdout: the milliseconds between. */
    private static double firstAnswerMs(List<String> command, String request) throws Exception {
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (OutputStream in = process.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            in.write((request + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            String line = out.readLine();
            double ms = (System.nanoTime() - start) / 1e6;
            if (line == null || !line.contains("\"result\"")) {
                throw new IllegalStateException(command + " answered " + line);
            }
            return ms;
        } finally {
            process.destroy();
            process.waitFor();
        }
    }
}
