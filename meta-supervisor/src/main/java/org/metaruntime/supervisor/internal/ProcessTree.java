package org.metaruntime.supervisor.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Finds the processes of one child's tree: the child, its descendants, and descendants that were re-parented
 * after their parent died (they vanish from {@link ProcessHandle#descendants()}).
 *
 * <p>The child is started with {@code META_PROCESS_TOKEN=<unique token>} in its environment, which its
 * descendants inherit. On Linux the tree is found by scanning {@code /proc/<pid>/environ} for that token;
 * the environment there is the one the process was started with, so a descendant that later changes its
 * own environment is still found, but one started with a cleared environment (or without the token) is not.
 * Elsewhere the tree is the union of the descendant snapshots taken so far ({@link #snapshot()}).
 * Thread-safe.
 */
public final class ProcessTree {

    private static final Path PROC = Path.of("/proc");
    private static final boolean HAS_PROC = Files.isReadable(PROC.resolve("self").resolve("environ"));

    private final ProcessHandle root;
    private final byte[] tokenEntry;
    private final Set<ProcessHandle> snapshots = new LinkedHashSet<>();

    /**
     * @param root        the child process
     * @param tokenEntry  the environment entry {@code NAME=token} that marks the tree
     */
    public ProcessTree(ProcessHandle root, String tokenEntry) {
        this.root = Objects.requireNonNull(root, "root");
        this.tokenEntry = tokenEntry.getBytes(StandardCharsets.UTF_8);
    }

    /** Records the current descendants of the child (cheap: one pass over the process table). */
    public void snapshot() {
        List<ProcessHandle> now = root.descendants().toList();
        synchronized (snapshots) {
            snapshots.addAll(now);
        }
    }

    /**
     * The processes of the tree alive now, the child first if it is alive: the current descendants, the
     * earlier snapshots, and on Linux every process carrying the token.
     */
    public List<ProcessHandle> alive() {
        Set<ProcessHandle> tree = new LinkedHashSet<>();
        tree.add(root);
        root.descendants().forEach(tree::add);
        synchronized (snapshots) {
            tree.addAll(snapshots);
        }
        tree.addAll(findByToken());
        List<ProcessHandle> alive = new ArrayList<>();
        for (ProcessHandle handle : tree) {
            if (isAlive(handle)) {
                alive.add(handle);
            }
        }
        return alive;
    }

    /** Processes whose initial environment holds the token (Linux only; empty elsewhere). */
    List<ProcessHandle> findByToken() {
        if (!HAS_PROC) {
            return List.of();
        }
        List<ProcessHandle> found = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
            for (Path entry : entries) {
                long pid = parsePid(entry.getFileName().toString());
                if (pid <= 0 || pid == self) {
                    continue;
                }
                if (hasTokenEntry(entry.resolve("environ"))) {
                    ProcessHandle.of(pid).ifPresent(found::add);
                }
            }
        } catch (IOException e) {
            // The process table could not be listed: fall back to the snapshots.
            return found;
        }
        return found;
    }

    private boolean hasTokenEntry(Path environ) {
        byte[] env;
        try {
            env = Files.readAllBytes(environ);
        } catch (IOException | SecurityException e) {
            return false;
        }
        int n = tokenEntry.length;
        for (int at = 0; at + n <= env.length; ) {
            if (regionMatches(env, at, tokenEntry) && (at + n == env.length || env[at + n] == 0)) {
                return true;
            }
            int next = indexOfNul(env, at);
            if (next < 0) {
                return false;
            }
            at = next + 1;
        }
        return false;
    }

    private static boolean regionMatches(byte[] bytes, int at, byte[] expected) {
        for (int i = 0; i < expected.length; i++) {
            if (bytes[at + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOfNul(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                return i;
            }
        }
        return -1;
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

    /**
     * True when the process exists and is not a zombie. {@link ProcessHandle#isAlive()} reports a zombie
     * (exited, not yet reaped by its parent or by init) as alive; on Linux its state in
     * {@code /proc/<pid>/stat} tells it apart.
     */
    public static boolean isAlive(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        if (!HAS_PROC) {
            return true;
        }
        String stat;
        try {
            stat = Files.readString(PROC.resolve(Long.toString(handle.pid())).resolve("stat"),
                    StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return handle.isAlive();
        }
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.length()) {
            return true;
        }
        char state = stat.charAt(close + 2);
        return state != 'Z' && state != 'X';
    }
}
