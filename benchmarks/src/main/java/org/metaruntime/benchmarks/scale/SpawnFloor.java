package org.metaruntime.benchmarks.scale;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a bare {@link ProcessBuilder} spawn costs this JVM as it holds more: the floor under every module start and
 * every event-line call, whatever the runtime does. Each setting runs {@code true} {@code --runs} times
 * (start, then wait for its exit) in a fresh state of this JVM:
 * <ul>
 *   <li>nothing else open;</li>
 *   <li>{@code --descriptors} (3000) extra open file descriptors (as 1,000 modules' pipes are);</li>
 *   <li>{@code --children} (1000) live children started with {@code /dev/null} stdio (no descriptors, but one JDK
 *       reaper thread each).</li>
 * </ul>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.scale.SpawnFloor}.
 */
public final class SpawnFloor {

    private SpawnFloor() {
    }

    public static void main(String[] argv) throws Exception {
        int runs = 100;
        int descriptors = 3000;
        int children = 1000;
        for (int i = 0; i + 1 < argv.length; i += 2) {
            switch (argv[i]) {
                case "--runs" -> runs = Integer.parseInt(argv[i + 1]);
                case "--descriptors" -> descriptors = Integer.parseInt(argv[i + 1]);
                case "--children" -> children = Integer.parseInt(argv[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + argv[i]);
            }
        }
        measure("warm-up", runs);
        double none = measure("nothing else open", runs);

        List<FileInputStream> open = new ArrayList<>();
        for (int i = 0; i < descriptors; i++) {
            open.add(new FileInputStream("/dev/null"));
        }
        double withDescriptors = measure(descriptors + " extra descriptors", runs);
        for (FileInputStream in : open) {
            in.close();
        }

        List<Process> live = new ArrayList<>();
        for (int i = 0; i < children; i++) {
            live.add(new ProcessBuilder("sleep", "600").redirectInput(ProcessBuilder.Redirect.from(
                    new java.io.File("/dev/null"))).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start());
        }
        double withChildren = measure(children + " live children (no pipes)", runs);
        for (Process process : live) {
            process.destroyForcibly();
        }
        for (Process process : live) {
            process.waitFor();
        }
        System.out.printf(Locale.ROOT, "ratios to nothing else open: %d descriptors %.2fx, %d children %.2fx%n",
                descriptors, withDescriptors / none, children, withChildren / none);
    }

    /** Mean µs of start + waitFor of {@code true}. */
    private static double measure(String what, int runs) throws IOException, InterruptedException {
        long total = 0;
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            Process process = new ProcessBuilder("true").start();
            process.waitFor();
            total += System.nanoTime() - t0;
            process.getInputStream().close();
            process.getErrorStream().close();
            process.getOutputStream().close();
        }
        double micros = total / 1e3 / runs;
        System.out.printf(Locale.ROOT, "%s: spawn + exit of `true` %.0f us (mean of %d)%n", what, micros, runs);
        return micros;
    }
}
