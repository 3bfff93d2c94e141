package org.metaruntime.supervisor.internal;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * One look at Linux's {@code /proc}, read lazily and shared by every lookup that uses it: the parent and start
 * time of a process ({@code /proc/<pid>/stat}) are read the first time a lookup needs them, at most once per
 * pass; the tree token ({@value ProcessSpec#TOKEN_ENV}) in a process's initial environment
 * ({@code /proc/<pid>/environ}, a larger file) likewise, and only for processes started no earlier than the child
 * whose token is looked for (no other can carry it: a process starts after its parent).
 *
 * <p><b>Scope.</b> A lookup for one child reads only the processes created after it: the kernel hands out pids
 * in increasing order, wrapping at {@code pid_max}, so every process created after the child (its descendants,
 * re-parented or not, among them) has a pid in the cyclic range from the child's pid to the last pid handed out
 * when the pass began ({@code /proc/loadavg}), unless the pids went all the way round since. They cannot have when
 * {@code 2 * forks + tasks < pid_max - 300}, where {@code forks} is the number of processes and threads created
 * since just before the spawn and {@code tasks} the number alive then: the allocator steps over a free pid by
 * using it and over a used one at most once per task alive in that time. A range of up to
 * {@value #PROBE_LIMIT} pids is probed pid by pid; a larger one is taken from the listing of {@code /proc}
 * (read once per pass), and without that guarantee the lookup reads every process, as a full pass would. So the
 * stop of a child and the clean-up after its exit cost what the child and the processes created since it cost,
 * not what the host's other processes cost.
 *
 * <p>A process in the middle of {@code execve} has an empty {@code environ} for a moment (the kernel installs the
 * new memory before it copies the new environment into it; the longer the host is loaded, the longer the
 * moment). An empty read of a live user process is therefore not taken as "no token": it is read again until
 * it is not empty, for up to {@value #UNSETTLED_WAIT_MS} ms (after which the environment is taken as empty for
 * this pass).
 *
 * <p>Passes are shared: {@link #takenAfter(long)} returns the last pass if it began after the given moment, so
 * children that are stopped or exit together (whose moments all precede the pass) share one, and no caller ever
 * sees a pass older than the moment it asks about. Thread-safe.
 */
final class ProcessTable {

    private static final Path PROC = Path.of("/proc");
    private static final byte[] TOKEN_PREFIX = (ProcessSpec.TOKEN_ENV + "=").getBytes(StandardCharsets.UTF_8);
    private static final String NO_TOKEN = "";
    /** How long a lookup re-reads an environment that reads empty while its process is alive. */
    static final long UNSETTLED_WAIT_MS = 200;
    /** The largest range of pids probed one by one; a larger one is taken from the listing of {@code /proc}. */
    static final int PROBE_LIMIT = 256;
    /** Pids below this are not handed out again after a wrap (the kernel's {@code RESERVED_PIDS}). */
    private static final long RESERVED_PIDS = 300;
    /** {@code PF_KTHREAD} in the flags of {@code /proc/<pid>/stat}: a kernel thread, whose environment is empty. */
    private static final long KERNEL_THREAD = 0x00200000L;
    private static final long PID_MAX = readPidMax();
    private static final Object LOCK = new Object();
    private static ProcessTable latest;

    private final long takenNanos;
    /** The last pid handed out when the pass began, or -1 when unknown. */
    private final long lastPid;
    /** {@link #forksSinceBoot()} when the pass began, or -1. */
    private final long forks;
    private final Function<Long, Stat> stats;
    private final Supplier<long[]> lister;
    private final Function<Long, byte[]> environ;
    private final Map<Long, Stat> statCache = new ConcurrentHashMap<>();
    private final Map<Long, String> tokens = new ConcurrentHashMap<>();
    private volatile long[] listing;

    private ProcessTable(long takenNanos, long lastPid, long forks, Function<Long, Stat> stats,
                         Supplier<long[]> lister, Function<Long, byte[]> environ) {
        this.takenNanos = takenNanos;
        this.lastPid = lastPid;
        this.forks = forks;
        this.stats = stats;
        this.lister = lister;
        this.environ = environ;
    }

    /**
     * A table of the given processes only (for tests): no scope, {@code children} by parent and
     * {@code startTicks} by pid.
     *
     * @param environ reads the initial environment of a pid ({@code /proc/<pid>/environ}), null when it cannot be
     *                read
     */
    ProcessTable(long takenNanos, Map<Long, List<Long>> children, Map<Long, Long> startTicks,
                 Function<Long, byte[]> environ) {
        this(takenNanos, -1, -1, pid -> {
            Long started = startTicks.get(pid);
            if (started == null) {
                return null;
            }
            long parent = children.entrySet().stream().filter(e -> e.getValue().contains(pid))
                    .mapToLong(Map.Entry::getKey).findFirst().orElse(0);
            return new Stat('S', parent, 0, started, 17);
        }, () -> startTicks.keySet().stream().mapToLong(Long::longValue).toArray(), environ);
    }

    /** True where {@code /proc} can be scanned. */
    static boolean available() {
        return Files.isReadable(PROC.resolve("self").resolve("environ"));
    }

    /** A pass begun at or after {@code nanos} ({@link System#nanoTime()}), begun now if needed. */
    static ProcessTable takenAfter(long nanos) {
        synchronized (LOCK) {
            if (latest == null || latest.takenNanos - nanos < 0) {
                long taken = System.nanoTime();
                long forks = forksSinceBoot();
                long[] load = loadavg();
                latest = new ProcessTable(taken, load[1], forks, pid -> Stat.read(PROC.resolve(Long.toString(pid))),
                        ProcessTable::list, ProcessTable::readEnviron);
            }
            return latest;
        }
    }

    /**
     * The number of tasks (processes and threads) alive now, from {@code /proc/loadavg}, or -1 when it cannot be
     * read. Read it just before a spawn, with {@link #forksSinceBoot()}, to scope the child's lookups.
     */
    static long tasksAlive() {
        return loadavg()[0];
    }

    /**
     * The number of processes and threads the host has created since boot (the {@code processes} line of
     * {@code /proc/stat}), or -1 when it cannot be read. It only grows.
     */
    static long forksSinceBoot() {
        // Read without NIO: this runs twice per spawn, and /proc/stat is small.
        byte[] buffer = new byte[16 * 1024];
        int length = 0;
        try (InputStream in = new FileInputStream("/proc/stat")) {
            int n;
            while (length < buffer.length && (n = in.read(buffer, length, buffer.length - length)) > 0) {
                length += n;
            }
        } catch (IOException | SecurityException e) {
            return -1;
        }
        String stat = new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
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

    /**
     * The start time of {@code pid} in clock ticks after boot ({@code /proc/<pid>/stat}), or 0 when it cannot
     * be read (the process is gone); 0 is earlier than every process.
     */
    static long startTicksOf(long pid) {
        Stat stat = Stat.read(PROC.resolve(Long.toString(pid)));
        return stat == null ? 0 : stat.startTicks();
    }

    /**
     * The processes (not threads) that may have been created after the child {@code rootPid}: those in its pid
     * range when the pids provably did not wrap round since ({@code scoped}), else every process.
     *
     * @param forksBeforeSpawn {@link #forksSinceBoot()} read just before the child's spawn, or -1
     * @param tasksBeforeSpawn {@link #tasksAlive()} read just before the child's spawn, or -1
     */
    Candidates createdAfter(long rootPid, long forksBeforeSpawn, long tasksBeforeSpawn) {
        if (lastPid < 0 || forks < 0 || forksBeforeSpawn < 0 || tasksBeforeSpawn < 0 || PID_MAX <= RESERVED_PIDS
                || 2 * (forks - forksBeforeSpawn) + tasksBeforeSpawn >= PID_MAX - RESERVED_PIDS) {
            return new Candidates(listing(), false);
        }
        long range = lastPid >= rootPid ? lastPid - rootPid : PID_MAX - rootPid + lastPid;
        if (range > PROBE_LIMIT) {
            return new Candidates(Arrays.stream(listing()).filter(pid -> inCyclicRange(pid, rootPid, lastPid))
                    .toArray(), true);
        }
        long[] found = new long[(int) range];
        int count = 0;
        long pid = rootPid;
        for (long i = 0; i < range; i++) {
            pid = pid + 1 >= PID_MAX ? 1 : pid + 1;
            // A thread's id is a pid too, and /proc/<tid> answers for it: only thread group leaders count.
            if (new File("/proc/" + pid).exists()) {   // a cheap miss: no exception
                Stat stat = stat(pid);
                if (stat != null && stat.exitSignal() != -1) {
                    found[count++] = pid;
                }
            }
        }
        return new Candidates(Arrays.copyOf(found, count), true);
    }

    /**
     * Processes a lookup reads.
     *
     * @param pids   their pids
     * @param scoped true when they are only those created after the child
     */
    record Candidates(long[] pids, boolean scoped) {
    }

    /** True when {@code pid} was handed out after {@code after} and up to {@code upTo}, wrapping at pid_max. */
    static boolean inCyclicRange(long pid, long after, long upTo) {
        return upTo >= after ? pid > after && pid <= upTo : pid > after || pid <= upTo;
    }

    /** Every process of this pass, read lazily from {@code /proc}. */
    long[] listing() {
        long[] known = listing;
        if (known == null) {
            synchronized (this) {
                if (listing == null) {
                    listing = lister.get();
                }
                known = listing;
            }
        }
        return known;
    }

    /** Every descendant of {@code pid} among {@code candidates}, whatever its environment. */
    Set<Long> descendantsOf(long pid, long[] candidates) {
        Map<Long, List<Long>> children = new HashMap<>();
        for (long candidate : candidates) {
            Stat stat = stat(candidate);
            if (stat != null && stat.parent() > 0) {
                children.computeIfAbsent(stat.parent(), p -> new ArrayList<>()).add(candidate);
            }
        }
        Set<Long> found = new LinkedHashSet<>();
        ArrayDeque<Long> pending = new ArrayDeque<>(List.of(pid));
        while (!pending.isEmpty()) {
            for (long child : children.getOrDefault(pending.poll(), List.of())) {
                if (found.add(child)) {
                    pending.add(child);
                }
            }
        }
        return found;
    }

    /** {@link #carriersOf(String, long, long[])} among every process of this pass. */
    List<Long> carriersOf(String token, long notBeforeTicks) {
        return carriersOf(token, notBeforeTicks, listing());
    }

    /**
     * Every process among {@code candidates} whose initial environment holds the token, whoever its parent is
     * now. Only processes started at or after {@code notBeforeTicks} (the start time of the child the token was
     * given to) are read.
     */
    List<Long> carriersOf(String token, long notBeforeTicks, long[] candidates) {
        List<Long> found = new ArrayList<>();
        for (long pid : candidates) {
            Stat stat = stat(pid);
            if (stat != null && stat.startTicks() >= notBeforeTicks && token.equals(tokenOf(pid))) {
                found.add(pid);
            }
        }
        return found;
    }

    private Stat stat(long pid) {
        Stat known = statCache.get(pid);
        if (known == null) {
            Stat read = stats.apply(pid);
            known = read == null ? Stat.GONE : read;
            Stat raced = statCache.putIfAbsent(pid, known);
            if (raced != null) {
                known = raced;
            }
        }
        return known == Stat.GONE ? null : known;
    }

    /**
     * The token of {@code pid}, read once per pass; an environment that reads empty while the process is alive
     * (it is in the middle of {@code execve}) is read again until it is not, for up to {@value #UNSETTLED_WAIT_MS}
     * ms.
     */
    private String tokenOf(long pid) {
        String known = tokens.get(pid);
        if (known != null) {
            return known;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(UNSETTLED_WAIT_MS);
        while (true) {
            byte[] env = environ.apply(pid);
            if (env == null || env.length > 0 || settledEmpty(pid)) {
                String token = env == null ? NO_TOKEN : tokenIn(env);
                tokens.put(pid, token);
                return token;
            }
            if (System.nanoTime() - deadline >= 0) {
                // Empty for that long: an environment that is empty indeed; a later pass reads it again.
                tokens.put(pid, NO_TOKEN);
                return NO_TOKEN;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return NO_TOKEN;
            }
        }
    }

    /** True when an empty environment of {@code pid} is final: it is gone, a zombie or a kernel thread. */
    private static boolean settledEmpty(long pid) {
        Stat stat = Stat.read(PROC.resolve(Long.toString(pid)));
        return stat == null || stat.state() == 'Z' || stat.state() == 'X' || (stat.flags() & KERNEL_THREAD) != 0;
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

    /** {@code [tasks alive, last pid handed out]} from {@code /proc/loadavg} ("0.1 0.2 0.3 2/345 6789"), or -1s. */
    private static long[] loadavg() {
        String[] fields = readSmall("/proc/loadavg").trim().split(" ");
        try {
            int slash = fields[3].indexOf('/');
            return new long[] {Long.parseLong(fields[3].substring(slash + 1)), Long.parseLong(fields[4])};
        } catch (RuntimeException e) {
            return new long[] {-1, -1};
        }
    }

    private static long readPidMax() {
        try {
            return Long.parseLong(readSmall("/proc/sys/kernel/pid_max").trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * A small {@code /proc} file, read to its end ("" when it cannot be read). Not with {@link Files#readString}:
     * these files report a size of 0, and some of them are then cut short.
     */
    private static String readSmall(String path) {
        byte[] buffer = new byte[256];
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

    /** The fields of {@code /proc/<pid>/stat} ("pid (comm) state ppid ... flags ... starttime ...") used here. */
    private record Stat(char state, long parent, long flags, long startTicks, long exitSignal) {

        /** A process that was looked for and is gone. */
        static final Stat GONE = new Stat('X', 0, 0, 0, 0);
        /** Fields after the command name (state is 0): ppid is 1, flags 6, starttime 19, exit_signal 35. */
        private static final int PARENT_FIELD = 1;
        private static final int FLAGS_FIELD = 6;
        private static final int START_FIELD = 19;
        private static final int EXIT_SIGNAL_FIELD = 35;

        static Stat read(Path entry) {
            String stat;
            try {
                stat = Files.readString(entry.resolve("stat"), StandardCharsets.ISO_8859_1);
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

    /** The initial environment of {@code pid}, or null when it cannot be read. */
    private static byte[] readEnviron(long pid) {
        try {
            return Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("environ"));
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /** The value of {@value ProcessSpec#TOKEN_ENV} in an environment (NUL-terminated {@code NAME=value}), or "". */
    private static String tokenIn(byte[] env) {
        byte[] prefix = TOKEN_PREFIX;
        int at = 0;
        while (at < env.length) {
            int end = at;
            while (end < env.length && env[end] != 0) {
                end++;
            }
            if (end - at >= prefix.length && startsWith(env, at, prefix)) {
                return new String(env, at + prefix.length, end - at - prefix.length, StandardCharsets.UTF_8);
            }
            at = end + 1;
        }
        return NO_TOKEN;
    }

    private static boolean startsWith(byte[] bytes, int at, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
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
