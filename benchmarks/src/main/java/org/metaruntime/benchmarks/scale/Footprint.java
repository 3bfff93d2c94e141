package org.metaruntime.benchmarks.scale;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One look at what the JVM holds: threads (all, and grouped by name), file descriptors, child processes, heap used
 * after a full GC; and the memory of a set of child processes read from {@code /proc}. Linux only.
 *
 * @param threads        live Java threads (the JVM's own compiler and GC threads, which come and go, are not
 *                       counted; {@code osThreads} has them)
 * @param osThreads      every thread of the JVM process ({@code /proc/self/task})
 * @param threadGroups   live threads by name, with the module id and numbers taken out
 *                       ({@code meta-<id>-stdout} becomes {@code meta-*-stdout}, {@code meta-core-3-worker-7}
 *                       becomes {@code meta-core-*-worker-*})
 * @param fds            open file descriptors ({@code /proc/self/fd})
 * @param children       live descendant processes of the JVM
 * @param heapAfterGcKiB heap in use after {@code System.gc()}, KiB (0 when not measured)
 */
record Footprint(int threads, int osThreads, Map<String, Integer> threadGroups, int fds, long children,
                 long heapAfterGcKiB) {

    Footprint {
        threadGroups = Map.copyOf(threadGroups);
    }

    /** Threads, descriptors and children now; the heap only when {@code gc}. */
    static Footprint take(boolean gc) {
        long heap = 0;
        if (gc) {
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024;
        }
        Map<String, Integer> groups = new TreeMap<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.isAlive()) {
                groups.merge(group(thread.getName()), 1, Integer::sum);
            }
        }
        int threads = groups.values().stream().mapToInt(Integer::intValue).sum();
        return new Footprint(threads, count(Path.of("/proc/self/task")), groups, count(Path.of("/proc/self/fd")),
                ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(), heap);
    }

    /**
     * The threads at work: all but the JDK's idle pool threads, which time out after 60 s (an idle
     * {@code process reaper}, common-pool workers). A reaper waiting for a child is named
     * {@code process reaper (pid N)} and counts.
     */
    int activeThreads() {
        return threads - threadGroups.getOrDefault("process reaper", 0)
                - threadGroups.getOrDefault("ForkJoinPool.commonPool-worker-*", 0);
    }

    /** The JDK's reapers waiting for a child: one per live child process. */
    int busyReapers() {
        return threadGroups.getOrDefault("process reaper (pid *)", 0);
    }

    static String group(String name) {
        if (name.startsWith("meta-") && (name.endsWith("-stdout") || name.endsWith("-stderr"))) {
            return "meta-*" + name.substring(name.lastIndexOf('-'));
        }
        return name.replaceAll("\\d+", "*");
    }

    private static int count(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return (int) entries.count();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + dir + " (the harness needs Linux /proc)", e);
        }
    }

    /** Summed {@code VmRSS} and {@code Pss} (KiB) of {@code pids}, read from {@code /proc/<pid>}; dead pids count 0. */
    static long[] childMemoryKiB(Collection<Long> pids) {
        long rss = 0;
        long pss = 0;
        for (long pid : pids) {
            rss += procField(Path.of("/proc/" + pid + "/status"), "VmRSS:");
            pss += procField(Path.of("/proc/" + pid + "/smaps_rollup"), "Pss:");
        }
        return new long[] {rss, pss};
    }

    private static long procField(Path file, String field) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(line -> line.startsWith(field)).findFirst()
                    .map(line -> Long.parseLong(line.substring(field.length()).replace("kB", "").strip()))
                    .orElse(0L);
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }

    /** The soft limit named {@code name} in {@code /proc/self/limits} ("Max open files", "Max processes"). */
    static String limit(String name) {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/limits"))) {
            return lines.filter(line -> line.startsWith(name)).findFirst()
                    .map(line -> line.substring(name.length()).strip().split("\\s+")[0]).orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }
}
