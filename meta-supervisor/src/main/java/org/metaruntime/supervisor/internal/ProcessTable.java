package org.metaruntime.supervisor.internal;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * One pass over Linux's {@code /proc}: the parent and start time of every process, from
 * {@code /proc/<pid>/stat}. The tree token ({@value ProcessSpec#TOKEN_ENV}) in a process's initial environment
 * ({@code /proc/<pid>/environ}, a larger file) is read only when asked for, only for processes started no earlier
 * than the child whose token is looked for (no other can carry it: a process starts after its parent), and at
 * most once per pass. On a host with many long-running processes a lookup therefore reads the environment of
 * a few recent processes, not of all of them.
 *
 * <p>A process in the middle of {@code execve} has an empty {@code environ} for a moment (the kernel installs the
 * new memory before it copies the new environment into it; the longer the host is loaded, the longer the
 * moment). An empty read of a live user process is therefore not taken as "no token": it is read again until
 * it is not empty, for up to {@value #UNSETTLED_WAIT_MS} ms (after which the environment is taken as empty for
 * this pass).
 *
 * <p>Passes are shared: {@link #takenAfter(long)} returns the last pass if it began after the given moment, so
 * children that are stopped or exit together (whose moments all precede the pass) share one pass, and no
 * caller ever sees a pass older than the moment it asks about. Thread-safe.
 */
final class ProcessTable {

    private static final Path PROC = Path.of("/proc");
    private static final byte[] TOKEN_PREFIX = (ProcessSpec.TOKEN_ENV + "=").getBytes(StandardCharsets.UTF_8);
    private static final String NO_TOKEN = "";
    /** How long a lookup re-reads an environment that reads empty while its process is alive. */
    static final long UNSETTLED_WAIT_MS = 200;
    /** {@code PF_KTHREAD} in the flags of {@code /proc/<pid>/stat}: a kernel thread, whose environment is empty. */
    private static final long KERNEL_THREAD = 0x00200000L;
    private static final Object LOCK = new Object();
    private static ProcessTable latest;

    private final long takenNanos;
    private final Map<Long, List<Long>> children;
    private final Map<Long, Long> startTicks;
    private final Function<Long, byte[]> environ;
    private final Map<Long, String> tokens = new ConcurrentHashMap<>();

    /**
     * @param environ reads the initial environment of a pid ({@code /proc/<pid>/environ}), null when it cannot be
     *                read
     */
    ProcessTable(long takenNanos, Map<Long, List<Long>> children, Map<Long, Long> startTicks,
                 Function<Long, byte[]> environ) {
        this.takenNanos = takenNanos;
        this.children = children;
        this.startTicks = startTicks;
        this.environ = environ;
    }

    /** True where {@code /proc} can be scanned. */
    static boolean available() {
        return Files.isReadable(PROC.resolve("self").resolve("environ"));
    }

    /** A pass begun at or after {@code nanos} ({@link System#nanoTime()}), taken now if needed. */
    static ProcessTable takenAfter(long nanos) {
        synchronized (LOCK) {
            if (latest == null || latest.takenNanos - nanos < 0) {
                latest = scan();
            }
            return latest;
        }
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

    /** Every descendant of {@code pid}, whatever its environment. */
    Set<Long> descendantsOf(long pid) {
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

    /**
     * Every process whose initial environment holds the token, whoever its parent is now. Only processes
     * started at or after {@code notBeforeTicks} (the start time of the child the token was given to) are read.
     */
    List<Long> carriersOf(String token, long notBeforeTicks) {
        List<Long> found = new ArrayList<>();
        startTicks.forEach((pid, started) -> {
            if (started >= notBeforeTicks && token.equals(tokenOf(pid))) {
                found.add(pid);
            }
        });
        return found;
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

    private static ProcessTable scan() {
        long taken = System.nanoTime();
        Map<Long, List<Long>> children = new HashMap<>();
        Map<Long, Long> startTicks = new HashMap<>();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
            for (Path entry : entries) {
                long pid = parsePid(entry.getFileName().toString());
                if (pid <= 0 || pid == self) {
                    continue;
                }
                Stat stat = Stat.read(entry);
                if (stat == null) {
                    continue;
                }
                if (stat.parent() > 0) {
                    children.computeIfAbsent(stat.parent(), p -> new ArrayList<>()).add(pid);
                }
                startTicks.put(pid, stat.startTicks());
            }
        } catch (IOException e) {
            // The process table could not be listed: what was read so far is all there is.
        }
        return new ProcessTable(taken, children, startTicks, ProcessTable::readEnviron);
    }

    /** The fields of {@code /proc/<pid>/stat} ("pid (comm) state ppid ... flags ... starttime ...") used here. */
    private record Stat(char state, long parent, long flags, long startTicks) {

        /** Fields after the command name (state is 0): ppid is 1, flags 6, starttime 19. */
        private static final int PARENT_FIELD = 1;
        private static final int FLAGS_FIELD = 6;
        private static final int START_FIELD = 19;

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
                        field(stat, close, FLAGS_FIELD), field(stat, close, START_FIELD));
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
