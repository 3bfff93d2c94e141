package org.metaruntime.supervisor.internal.proc;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The reads of Linux's {@code /proc} that lookups share, each kept with the moment ({@link System#nanoTime()}) it
 * was made: a lookup that must see the host as it was at or after some moment reuses any read made at or after that
 * moment and reads again what is older. So lookups that follow each other closely (the steps of a hundred stops
 * requested together, or the three steps of one stop) read each file once between them, and none of them ever
 * uses a read older than its moment. A process's token is kept with its start time (it cannot change while the
 * process lives, bar an exec, which only ever loses it). Bounded: at most {@value #MAX_CACHED} processes are kept
 * (beyond that everything is read again). Thread-safe.
 */
final class ProcReads {

    /** The fields of {@code /proc/<pid>/stat} ("pid (comm) state ppid ... flags ... starttime ...") used here. */
    record Stat(char state, long parent, long flags, long startTicks, long exitSignal) {

        /** Fields after the command name (state is 0): ppid is 1, flags 6, starttime 19, exit_signal 35. */
        private static final int PARENT_FIELD = 1;
        private static final int FLAGS_FIELD = 6;
        private static final int START_FIELD = 19;
        private static final int EXIT_SIGNAL_FIELD = 35;

        /** The stat of {@code pid}, or null when it is gone (or cannot be read). */
        static Stat read(long pid) {
            String stat;
            try {
                stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.ISO_8859_1);
            } catch (IOException | SecurityException e) {
                return null;
            }
            int close = stat.lastIndexOf(')');
            if (close < 0 || close + 2 >= stat.length()) {
                return null;
            }
            try {
                return new Stat(stat.charAt(close + 2), field(stat, close, PARENT_FIELD),
                        field(stat, close, FLAGS_FIELD), field(stat, close, START_FIELD),
                        field(stat, close, EXIT_SIGNAL_FIELD));
            } catch (NumberFormatException e) {
                return null;
            }
        }

        /** Field {@code index} (0 = state) of those after the command name, which ends at {@code close}. */
        private static long field(String stat, int close, int index) {
            int start = close + 2;
            for (int i = 0; i < index && start > 0; i++) {
                start = stat.indexOf(' ', start) + 1;
            }
            int end = start > 0 ? stat.indexOf(' ', start) : -1;
            if (start <= 0 || start >= stat.length()) {
                throw new NumberFormatException("no field " + index + " in " + stat);
            }
            return Long.parseLong(stat.substring(start, end < 0 ? stat.length() : end).trim());
        }
    }

    /**
     * What the host's counters said at {@code nanos}: the last pid handed out, the forks since boot and the tasks
     * alive (each -1 when unknown).
     */
    record Counters(long nanos, long lastPid, long forks, long tasks) {
    }

    private record Timed<T>(long nanos, T value) {
    }

    /** A token as read while its process had this start time, with the host's counters read before it. */
    private record Token(long startTicks, String token, Counters before) {
    }

    static final Path PROC = Path.of("/proc");
    /** The most processes whose reads are kept. */
    static final int MAX_CACHED = 65_536;
    /** Pids below this are not handed out again after a wrap (the kernel's {@code RESERVED_PIDS}). */
    static final long RESERVED_PIDS = 300;
    private static final Object GONE = new Object();
    private static final ProcReads HOST = new ProcReads(Stat::read, ProcReads::list, ProcReads::readEnviron);

    private final LongFunction<Stat> statReader;
    private final Supplier<long[]> lister;
    private final Function<Long, byte[]> environReader;
    private final Map<Long, Timed<Object>> stats = new ConcurrentHashMap<>();
    private final Map<Long, Token> tokens = new ConcurrentHashMap<>();
    private volatile Timed<long[]> listing;
    private volatile Counters counters;

    ProcReads(LongFunction<Stat> statReader, Supplier<long[]> lister, Function<Long, byte[]> environReader) {
        this.statReader = statReader;
        this.lister = lister;
        this.environReader = environReader;
    }

    /** The reads of this host's {@code /proc}. */
    static ProcReads host() {
        return HOST;
    }

    /** The stat of {@code pid} as read at or after {@code moment}; null when it is gone. */
    Stat stat(long pid, long moment) {
        Timed<Object> known = stats.get(pid);
        if (known != null && known.nanos() - moment >= 0) {
            return known.value() == GONE ? null : (Stat) known.value();
        }
        long now = System.nanoTime();
        Stat read = statReader.apply(pid);
        if (stats.size() >= MAX_CACHED) {
            stats.clear();
            tokens.clear();
        }
        stats.put(pid, new Timed<>(now, read == null ? GONE : read));
        return read;
    }

    /**
     * The stat of {@code pid} as read at or after {@code moment}, checking first that {@code /proc/<pid>} exists
     * (a cheap miss, for probing ranges of pids most of which are free); null when it is gone.
     */
    Stat probe(long pid, long moment) {
        Timed<Object> known = stats.get(pid);
        if (known == null || known.nanos() - moment < 0) {
            long now = System.nanoTime();
            if (this == HOST && !new File("/proc/" + pid).exists()) {
                stats.put(pid, new Timed<>(now, GONE));
                return null;
            }
        }
        return stat(pid, moment);
    }

    /** Every process's pid as listed at or after {@code moment}. */
    long[] listing(long moment) {
        Timed<long[]> known = listing;
        if (known != null && known.nanos() - moment >= 0) {
            return known.value();
        }
        synchronized (this) {
            known = listing;
            if (known == null || known.nanos() - moment < 0) {
                long now = System.nanoTime();
                long[] pids = lister.get();
                listing = known = new Timed<>(now, pids);
                forgetAllBut(pids);
            }
        }
        return known.value();
    }

    /** The host's counters as read at or after {@code moment}. */
    Counters counters(long moment) {
        Counters known = counters;
        if (known != null && known.nanos() - moment >= 0) {
            return known;
        }
        long now = System.nanoTime();
        long forks = forksSinceBoot();
        long[] loadavg = loadavg();
        Counters read = new Counters(now, loadavg[1], forks, loadavg[0]);
        counters = read;
        return read;
    }

    /** The token read for {@code pid} while it had this start time, or null when not read yet. */
    String knownToken(long pid, long startTicks) {
        Token known = tokens.get(pid);
        return known != null && known.startTicks() == startTicks ? known.token() : null;
    }

    /**
     * The token read for {@code pid}, as long as that pid cannot have been handed out again since, without reading
     * anything; null when unknown or when it may have been.
     *
     * <p>The kernel hands pids out in increasing order, wrapping at {@code pid_max} to {@value #RESERVED_PIDS}, and
     * steps over a free pid by using it and over a used one at most once per task alive meanwhile. So from the
     * last pid handed out before the read, the next hand-out of {@code pid} is at least its cyclic distance ahead,
     * and {@code forks} processes and threads created since, with {@code tasks} alive then, advance the allocator
     * by at most {@code 2 * forks + tasks}: while that is less than the distance, the pid is still the process
     * whose token was read, or no process.
     *
     * @param forksNow {@link #forksSinceBoot()} read now or later, or -1
     */
    String tokenUnlessReused(long pid, long forksNow, long pidMax) {
        Token known = tokens.get(pid);
        if (known == null || forksNow < 0 || pidMax <= RESERVED_PIDS) {
            return null;
        }
        Counters before = known.before();
        if (before == null || before.lastPid() < 0 || before.forks() < 0 || before.tasks() < 0) {
            return null;
        }
        long distance = pid < RESERVED_PIDS ? pidMax
                : pid > before.lastPid() ? pid - before.lastPid() : pidMax - before.lastPid() + pid - RESERVED_PIDS;
        return 2 * (forksNow - before.forks()) + before.tasks() < distance ? known.token() : null;
    }

    /**
     * Remembers the token of {@code pid} while it has this start time.
     *
     * @param before the host's counters read before the environment was, or null
     */
    void rememberToken(long pid, long startTicks, String token, Counters before) {
        tokens.put(pid, new Token(startTicks, token, before));
    }

    /** The initial environment of {@code pid}, or null when it cannot be read. */
    byte[] environ(long pid) {
        return environReader.apply(pid);
    }

    private void forgetAllBut(long[] live) {
        long[] sorted = live.clone();
        Arrays.sort(sorted);
        stats.keySet().removeIf(pid -> Arrays.binarySearch(sorted, pid) < 0);
        tokens.keySet().removeIf(pid -> Arrays.binarySearch(sorted, pid) < 0);
    }

    /**
     * The number of processes and threads the host has created since boot (the {@code processes} line of
     * {@code /proc/stat}), or -1 when it cannot be read. It only grows.
     */
    static long forksSinceBoot() {
        String stat = readSmall("/proc/stat", 16 * 1024);
        int at = stat.indexOf("\nprocesses ");
        if (at < 0) {
            return -1;
        }
        int start = at + "\nprocesses ".length();
        int end = stat.indexOf('\n', start);
        try {
            return Long.parseLong(stat.substring(start, end < 0 ? stat.length() : end).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** {@code [tasks alive, last pid handed out]} from {@code /proc/loadavg} ("0.1 0.2 0.3 2/345 6789"), or -1s. */
    static long[] loadavg() {
        String[] fields = readSmall("/proc/loadavg", 256).trim().split(" ");
        try {
            int slash = fields[3].indexOf('/');
            return new long[] {Long.parseLong(fields[3].substring(slash + 1)), Long.parseLong(fields[4])};
        } catch (RuntimeException e) {
            return new long[] {-1, -1};
        }
    }

    /** {@code /proc/sys/kernel/pid_max}, or -1. */
    static long pidMax() {
        try {
            return Long.parseLong(readSmall("/proc/sys/kernel/pid_max", 64).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * A small {@code /proc} file, read to its end ("" when it cannot be read). Not with {@link Files#readString}:
     * these files report a size of 0, and some of them are then cut short.
     */
    private static String readSmall(String path, int max) {
        byte[] buffer = new byte[max];
        int length = 0;
        try (InputStream in = new FileInputStream(path)) {
            int n;
            while (length < buffer.length && (n = in.read(buffer, length, buffer.length - length)) > 0) {
                length += n;
            }
        } catch (IOException | SecurityException e) {
            return "";
        }
        return new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
    }

    /**
     * The children of {@code pid} now, from {@code /proc/<pid>/task/<tid>/children} of each of its threads, or
     * null when they cannot be read (the process is gone, or the kernel keeps no such lists).
     */
    static java.util.List<Long> childrenOf(long pid) {
        Path tasks = PROC.resolve(Long.toString(pid)).resolve("task");
        java.util.List<Long> children = new java.util.ArrayList<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                String text;
                try {
                    text = new String(Files.readAllBytes(thread.resolve("children")), StandardCharsets.ISO_8859_1);
                } catch (java.nio.file.NoSuchFileException e) {
                    if (thread.getFileName().toString().equals(Long.toString(pid))) {
                        return null;   // the main thread has no list: the kernel keeps none
                    }
                    continue;          // a thread that ended meanwhile
                }
                for (String child : text.trim().split(" ")) {
                    long parsed = parsePid(child);
                    if (parsed > 0) {
                        children.add(parsed);
                    }
                }
            }
        } catch (IOException | SecurityException e) {
            return null;
        }
        return children;
    }

    private static long[] list() {
        long[] pids = new long[1024];
        int count = 0;
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
            for (Path entry : entries) {
                long pid = parsePid(entry.getFileName().toString());
                if (pid <= 0 || pid == self) {
                    continue;
                }
                if (count == pids.length) {
                    pids = Arrays.copyOf(pids, count * 2);
                }
                pids[count++] = pid;
            }
        } catch (IOException e) {
            // The process table could not be listed: what was read so far is all there is.
        }
        return Arrays.copyOf(pids, count);
    }

    private static byte[] readEnviron(long pid) {
        try {
            return Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("environ"));
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    private static long parsePid(String name) {
        if (name.isEmpty() || name.length() > 10) {
            return -1;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(name);
    }
}
