package org.metaruntime.benchmarks.scale;

import java.io.FileInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.ProcessLauncher;

/**
 * A spawn through the process layer ({@code ProcessLauncher.launch}, then the exit of {@code true}) directly and
 * through the launcher, with nothing else open and with {@code --descriptors} (3000) extra descriptors open (as
 * 1,000 live modules' pipes are), interleaved in {@code --rounds} (3) rounds of {@code --runs} (100) spawns each;
 * the first round is a warm-up and is not counted. Prints the mean of each setting and the ratios.
 * Run: {@code java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.scale.LauncherSpawn}.
 */
public final class LauncherSpawn {

    private static final String[] MODES = {"direct", "launcher"};

    private LauncherSpawn() {
    }

    public static void main(String[] argv) throws Exception {
        int runs = 100;
        int descriptors = 3000;
        int rounds = 3;
        for (int i = 0; i + 1 < argv.length; i += 2) {
            switch (argv[i]) {
                case "--runs" -> runs = Integer.parseInt(argv[i + 1]);
                case "--descriptors" -> descriptors = Integer.parseInt(argv[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(argv[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + argv[i]);
            }
        }
        ProcessSpec spec = ProcessSpec.builder("spawn").command("true").build();
        int[] opens = {0, descriptors};
        double[][] total = new double[2][2];
        for (int round = 0; round < rounds; round++) {
            List<FileInputStream> open = new ArrayList<>();
            for (int d = 0; d < opens.length; d++) {
                while (open.size() < opens[d]) {
                    open.add(new FileInputStream("/dev/null"));
                }
                for (int m = 0; m < MODES.length; m++) {
                    System.setProperty("metaruntime.spawn", MODES[m]);
                    double micros = measure(spec, runs);
                    System.out.printf(Locale.ROOT, "round %d, %d extra descriptors, %s: %.0f us%n", round, opens[d],
                            MODES[m], micros);
                    if (round > 0) {
                        total[d][m] += micros / (rounds - 1);
                    }
                }
            }
            for (FileInputStream in : open) {
                in.close();
            }
        }
        System.out.printf(Locale.ROOT, "mean of rounds 1..%d: direct %.0f / %.0f us, launcher %.0f / %.0f us "
                        + "(0 / %d extra descriptors); with %d: launcher / direct %.2fx; launcher %d / direct 0: %.2fx%n",
                rounds - 1, total[0][0], total[1][0], total[0][1], total[1][1], descriptors, descriptors,
                total[1][1] / total[1][0], descriptors, total[1][1] / total[0][0]);
    }

    /** Mean µs of a launch and the exit of {@code true}. */
    private static double measure(ProcessSpec spec, int runs) throws InterruptedException, java.io.IOException {
        long sum = 0;
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            Process process = ProcessLauncher.launch(spec).process();
            process.waitFor();
            sum += System.nanoTime() - t0;
            process.getInputStream().close();
            process.getErrorStream().close();
            process.getOutputStream().close();
        }
        return sum / 1e3 / runs;
    }
}
