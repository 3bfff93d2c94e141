package org.metaruntime.supervisor.internal;

import java.io.IOException;
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
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * One pass over Linux's {@code /proc}: the parent of every process, and the tree token
 * ({@value ProcessSpec#TOKEN_ENV}) in every process's initial environment. A pass reads two small files per process, so
 * passes are shared: {@link #recent()} returns the last pass if it is at most {@link #MAX_AGE_MILLIS} old,
 * which lets many children be stopped at once for the cost of a few passes. A pid cannot be reused within that
 * age (it would take a full wrap of the pid space). Immutable; {@link #recent()} is thread-safe.
 */
final class ProcessTable {

    /** How old a shared pass may be. */
    static final long MAX_AGE_MILLIS = 20;

    private static final Path PROC = Path.of("/proc");
    private static final Object LOCK = new Object();
    private static ProcessTable latest;

    private final long takenNanos;
    private final Map<Long, List<Long>> children;
    private final Map<String, List<Long>> carriers;

    private ProcessTable(long takenNanos, Map<Long, List<Long>> children, Map<String, List<Long>> carriers) {
        this.takenNanos = takenNanos;
        this.children = children;
        this.carriers = carriers;
    }

    /** True where {@code /proc} can be scanned. */
    static boolean available() {
        return Files.isReadable(PROC.resolve("self").resolve("environ"));
    }

    /** A pass at most {@link #MAX_AGE_MILLIS} old, taken now if needed. */
    static ProcessTable recent() {
        synchronized (LOCK) {
            long now = System.nanoTime();
            if (latest == null || now - latest.takenNanos > TimeUnit.MILLISECONDS.toNanos(MAX_AGE_MILLIS)) {
                latest = scan();
            }
            return latest;
        }
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

    /** Every process whose initial environment holds the token, whoever its parent is now. */
    List<Long> carriersOf(String token) {
        return carriers.getOrDefault(token, List.of());
    }

    private static ProcessTable scan() {
        long taken = System.nanoTime();
        byte[] prefix = (ProcessSpec.TOKEN_ENV + "=").getBytes(StandardCharsets.UTF_8);
        Map<Long, List<Long>> children = new HashMap<>();
        Map<String, List<Long>> carriers = new HashMap<>();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
            for (Path entry : entries) {
                long pid = parsePid(entry.getFileName().toString());
                if (pid <= 0 || pid == self) {
                    continue;
                }
                long parent = parentOf(entry);
                if (parent > 0) {
                    children.computeIfAbsent(parent, p -> new ArrayList<>()).add(pid);
                }
                String token = variable(entry, prefix);
                if (token != null) {
                    carriers.computeIfAbsent(token, t -> new ArrayList<>()).add(pid);
                }
            }
        } catch (IOException e) {
            // The process table could not be listed: what was read so far is all there is.
        }
        return new ProcessTable(taken, children, carriers);
    }

    /** The parent pid from {@code /proc/<pid>/stat} ("pid (comm) state ppid ..."), or -1. */
    private static long parentOf(Path entry) {
        String stat;
        try {
            stat = Files.readString(entry.resolve("stat"), StandardCharsets.ISO_8859_1);
        } catch (IOException | SecurityException e) {
            return -1;
        }
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 4 >= stat.length()) {
            return -1;
        }
        int start = close + 4;
        int end = stat.indexOf(' ', start);
        try {
            return Long.parseLong(end < 0 ? stat.substring(start) : stat.substring(start, end));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The value of the variable whose {@code NAME=} is {@code prefix}, or null. */
    private static String variable(Path entry, byte[] prefix) {
        byte[] env;
        try {
            env = Files.readAllBytes(entry.resolve("environ"));
        } catch (IOException | SecurityException e) {
            return null;
        }
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
        return null;
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
