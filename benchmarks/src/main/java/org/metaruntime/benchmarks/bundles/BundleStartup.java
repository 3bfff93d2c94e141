package org.metaruntime.benchmarks.bundles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Spawn-to-ready time and resident memory of each example bundle (examples/bundles), measured the same way for all:
 * spawn the process, send {@code initialize}, then {@code notifications/initialized} and {@code tools/list}; the
 * bundle is ready when the {@code tools/list} answer arrives. Memory is the VmRSS of the process and its
 * descendants, read from {@code /proc} right after, when the bundle is idle and ready. The baseline, measured in
 * the same run, is the floor of a spawn: {@code cat} echoing one line back. Linux only.
 *
 * <p>The bundles must be built first (the examples tests build them into {@code examples/target/bundles}):
 * <pre>
 * mvn -B -pl examples -am verify -Dtest=BundlesTest -Dsurefire.failIfNoSpecifiedTests=false
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.bundles.BundleStartup . 7
 * </pre>
 * Arguments: the repository root (default {@code .}) and the runs per bundle (default 7; the median is reported).
 * Not thread-safe; a program.
 */
public final class BundleStartup {

    private static final ObjectMapper JSON = new ObjectMapper();

    private BundleStartup() {
    }

    /** One bundle to start: its name and argv. */
    private record Target(String name, List<String> command, Path workdir, Map<String, String> env) {
    }

    /** One start: time to ready and memory when ready. */
    private record Sample(double readyMs, long rssKiB) {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Path examples = root.resolve("examples");
        Path built = examples.resolve("target/bundles");
        Path prebuilt = examples.resolve("bundles/prebuilt/node_modules");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jar = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.endsWith(".jar") || e.contains("meta-module") || e.contains("jackson-"))
                .map(e -> Path.of(e).toAbsolutePath().toString())
                .reduce((a, b) -> a + File.pathSeparator + b).orElseThrow();
        List<Target> targets = List.of(
                new Target("C (gcc -O2)", List.of(built.resolve("c/hello").toString()), built, Map.of()),
                new Target("Rust (rustc -O, std only)", List.of(built.resolve("rust/hello").toString()), built, Map.of()),
                new Target("Go (go build, std only)", List.of(built.resolve("go/hello").toString()), built, Map.of()),
                new Target("Go (kubernetes-mcp-server, npm)", List.of(
                        prebuilt.resolve("kubernetes-mcp-server-linux-amd64/bin/kubernetes-mcp-server-linux-amd64").toString(),
                        "--kubeconfig", built.resolve("kubeconfig.yaml").toString(), "--read-only", "--disable-multi-cluster"),
                        built, Map.of()),
                new Target("Python (meta_module.py)", List.of(python(), "hello_bundle.py"),
                        examples.resolve("bundles/python"), Map.of()),
                new Target("TypeScript (@metaruntime/module on the TS SDK)", List.of("node",
                        examples.resolve("bundles/typescript/dist/hello.js").toString()), examples.resolve("bundles/typescript"),
                        Map.of()),
                new Target("Java (meta-module, -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)", List.of(java,
                        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                        built.resolve("java") + File.pathSeparator + jar, "HelloBundle"), built, Map.of()),
                new Target("C# (@azure/mcp, npm)", List.of(prebuilt.resolve("@azure/mcp-linux-x64/dist/azmcp").toString(),
                        "server", "start", "--namespace", "azureterraformbestpractices"), built,
                        Map.of("AZURE_MCP_COLLECT_TELEMETRY", "false", "DOTNET_CLI_TELEMETRY_OPTOUT", "1")));

        double floor = median(runs, () -> catFloor());
        System.out.printf("baseline: cat echoes one line, median of %d: %.2f ms%n%n", runs, floor);
        System.out.println("| bundle | spawn to ready (median ms) | ratio to the spawn floor | RSS when ready (median MiB) |");
        System.out.println("|---|---:|---:|---:|");
        for (Target target : targets) {
            if (!Files.isExecutable(Path.of(target.command().get(0))) && target.command().get(0).contains(File.separator)) {
                System.out.printf("| %s | not built | | |%n", target.name());
                continue;
            }
            start(target); // a warm-up start (file cache, the JVM's class data)
            List<Sample> samples = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                samples.add(start(target));
            }
            double ready = medianOf(samples.stream().mapToDouble(Sample::readyMs).toArray());
            double rss = medianOf(samples.stream().mapToDouble(s -> s.rssKiB() / 1024.0).toArray());
            System.out.printf("| %s | %.1f | %.0f× | %.1f |%n", target.name(), ready, ready / floor, rss);
        }
    }

    private static String python() throws IOException, InterruptedException {
        // the real interpreter, not a pyenv shim (a shim adds ~110 ms to every spawn)
        Process p = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").start();
        String path = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return path;
    }

    private interface Measure {
        double ms() throws Exception;
    }

    private static double median(int runs, Measure measure) throws Exception {
        measure.ms();
        double[] values = new double[runs];
        for (int i = 0; i < runs; i++) {
            values[i] = measure.ms();
        }
        return medianOf(values);
    }

    private static double medianOf(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static double catFloor() throws Exception {
        long start = System.nanoTime();
        Process p = new ProcessBuilder("cat").start();
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            in.write("{}\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            out.readLine();
            double ms = (System.nanoTime() - start) / 1e6;
            in.close();
            p.waitFor(10, TimeUnit.SECONDS);
            return ms;
        } finally {
            p.destroyForcibly();
        }
    }

    private static Sample start(Target target) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(target.command()).directory(target.workdir().toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(target.env());
        long start = System.nanoTime();
        Process p = builder.start();
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"0\"}}}");
            awaitId(out, 1);
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            awaitId(out, 2);
            double ms = (System.nanoTime() - start) / 1e6;
            long rss = rssKiB(p.toHandle());
            in.close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
            }
            return new Sample(ms, rss);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static void send(OutputStream in, String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private static void awaitId(BufferedReader out, int id) throws IOException {
        for (String line; (line = out.readLine()) != null; ) {
            JsonNode message;
            try {
                message = JSON.readTree(line);
            } catch (IOException e) {
                continue;
            }
            if (message.path("id").asInt(-1) == id && !message.has("method")) {
                return;
            }
        }
        throw new IOException("the bundle ended before answering request " + id);
    }

    /** VmRSS of the process and its live descendants, KiB. */
    private static long rssKiB(ProcessHandle process) {
        Map<Long, Long> rss = new LinkedHashMap<>();
        rss.put(process.pid(), vmRss(process.pid()));
        process.descendants().forEach(d -> rss.put(d.pid(), vmRss(d.pid())));
        return rss.values().stream().mapToLong(Long::longValue).sum();
    }

    private static long vmRss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return 0;
    }
}
