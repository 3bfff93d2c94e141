package org.metaruntime.benchmarks.eventline;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.metaruntime.eventline.EventLineChild;
import org.metaruntime.eventline.EventLineRunner;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * Threads per live event-line child: keeps N children alive (each started with
 * {@link EventLineRunner#startAttempt}; the script prints its line and sleeps) and counts the JVM's threads
 * before, while they live, and after they are stopped. Prints the runtime's own threads ({@code meta-*}) per
 * child and all new JVM threads per child (which include the JDK's "process reaper" thread per live child).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * org.metaruntime.benchmarks.eventline.EventLineThreadCount 200}
 */
public final class EventLineThreadCount {

    private EventLineThreadCount() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int children = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Path dir = Files.createTempDirectory("meta-eventline-threads");
        Path script = dir.resolve("linger.sh");
        Files.writeString(script, "#!/bin/sh\nprintf '%s\\n' '" + EventLineBenchmark.LINE + "'\nexec sleep 600\n");
        ProcessSpec spec = ProcessSpec.builder("bench").command("sh", script.toString()).build();
        EventLineRunner runner = EventLineRunner.create();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();

        // One warm-up child so the runtime's shared threads (exit watcher, timer) exist before the baseline.
        try (EventLineChild warm = runner.startAttempt(spec, Duration.ofSeconds(30))) {
            warm.event();
        }
        settle();
        int baseline = threads.getThreadCount();
        int baselineMeta = metaThreads();

        List<EventLineChild> live = new ArrayList<>();
        try {
            for (int i = 0; i < children; i++) {
                live.add(runner.startAttempt(spec, Duration.ofSeconds(30)));
            }
            settle();
            int during = threads.getThreadCount();
            int duringMeta = metaThreads();
            long alive = live.stream().filter(EventLineChild::isAlive).count();
            System.out.printf(Locale.ROOT, "live children:                     %d%n", alive);
            System.out.printf(Locale.ROOT, "runtime threads (meta-*) per child: %.2f (%d -> %d)%n",
                    (duringMeta - baselineMeta) / (double) children, baselineMeta, duringMeta);
            System.out.printf(Locale.ROOT, "all JVM threads per child:          %.2f (%d -> %d, of which"
                    + " %d JDK process reapers)%n", (during - baseline) / (double) children, baseline, during,
                    threadsNamed("process reaper"));
        } finally {
            live.parallelStream().forEach(child -> child.stop(EventLineRunner.KILL_LADDER));
        }
        settle();
        System.out.printf(Locale.ROOT, "JVM threads after stopping them:    %d (meta-*: %d, idle JDK process"
                + " reapers: %d)%n", threads.getThreadCount(), metaThreads(), threadsNamed("process reaper"));
        Files.delete(script);
        Files.delete(dir);
    }

    private static int metaThreads() {
        return threadsNamed("meta-");
    }

    private static int threadsNamed(String prefix) {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .count();
    }

    private static void settle() throws InterruptedException {
        TimeUnit.SECONDS.sleep(2);
    }
}
