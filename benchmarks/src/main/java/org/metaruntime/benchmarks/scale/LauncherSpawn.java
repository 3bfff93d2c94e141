package org.metaruntime.benchmarks.scale;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.ProcessLauncher;
import org.metaruntime.supervisor.internal.spawn.SharedLauncher;

/**
 * A spawn through the process layer ({@code ProcessLauncher.launch}, then the exit of {@code true}) directly and
 * through the launcher, with nothing else open and with {@code --descriptors} (3000) extra descriptors open (as
 * 1,000 live modules' pipes are), interleaved in {@code --rounds} (3) rounds of {@code --runs} (100) spawns each;
 * the first round is a warm-up and is not counted. Prints the mean wall time of each setting, the CPU time it took
 * (this JVM, the launcher and the children, from {@code /proc}), and the ratios.
 * Run: {@code java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.scale.LauncherSpawn}.
 */
public final class LauncherSpawn {

    private static final String[] MODES = {"direct", "launcher"};
    /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100;

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
        double[][] cpu = new double[2][2];
        for (int round = 0; round < rounds; round++) {
            List<FileInputStream> open = new ArrayList<>();
            for (int d = 0; d < opens.length; d++) {
                while (open.size() < opens[d]) {
                    open.add(new FileInputStream("/dev/null"));
                }
                for (int m = 0; m < MODES.length; m++) {
                    System.setProperty("metaruntime.spawn", MODES[m]);
                    measure(spec, 1); // untimed: starts the launcher if it was closed while idle
                    long cpu0 = cpuTicks();
                    double micros = measure(spec, runs);
                    double cpuMicros = (cpuTicks() - cpu0) * 1e6 / TICKS_PER_SECOND / runs;
                    System.out.printf(Locale.ROOT, "round %d, %d extra descriptors, %s: %.0f us wall, %.0f us CPU%n",
                            round, opens[d], MODES[m], micros, cpuMicros);
                    if (round > 0) {
                        total[d][m] += micros / (rounds - 1);
                        cpu[d][m] += cpuMicros / (rounds - 1);
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
        System.out.printf(Locale.ROOT, "CPU per spawn (this JVM, the launcher and the children): direct %.0f / %.0f us, "
                        + "launcher %.0f / %.0f us (0 / %d extra descriptors); with %d: launcher / direct %.2fx%n",
                cpu[0][0], cpu[1][0], cpu[0][1], cpu[1][1], descriptors, descriptors, cpu[1][1] / cpu[1][0]);
    }

    /**
     * CPU ticks used by this JVM and by the launcher, each with its reaped children (so the spawned children and the
     * JDK's spawn helper in them are counted wherever they ran).
     */
    private static long cpuTicks() throws IOException {
        long ticks = cpuTicksOf("self");
        OptionalLong launcher = SharedLauncher.pid();
        if (launcher.isPresent()) {
            ticks += cpuTicksOf(Long.toString(launcher.getAsLong()));
        }
        return ticks;
    }

    private static long cpuTicksOf(String pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", pid, "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // utime, stime, cutime, cstime are fields 14 to 17; fields[0] is field 3
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                + Long.parseLong(fields[14]);
    }

    /** Mean µs of a launch and the exit of {@code true}. */
    private static double measure(ProcessSpec spec, int runs) throws InterruptedException, IOException {
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
