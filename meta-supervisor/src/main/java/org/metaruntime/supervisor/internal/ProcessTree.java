package org.metaruntime.supervisor.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * Finds the processes of one child's tree: the child, its descendants, and descendants that were re-parented
 * after their parent died (they vanish from {@link ProcessHandle#descendants()}).
 *
 * <p>The child is started with {@value ProcessSpec#TOKEN_ENV}{@code =<unique token>} in its environment, which
 * its descendants inherit. On Linux the tree is every descendant of the child plus every process whose initial
 * environment ({@code /proc/<pid>/environ}) holds the token, from a shared pass over {@code /proc} begun after
 * the moment the caller names. Only processes created after the child can be either, so only they are read: those
 * in the child's pid range (see {@link ProcessTable}), or, when that range cannot be trusted, those started no
 * earlier than the child. A descendant that later changes its
 * own environment is still found; one started with a cleared environment (or without the token) is found only
 * while it is still a descendant. Elsewhere the tree is the current descendants plus the snapshots taken so far
 * ({@link #snapshot(long)}). Thread-safe.
 */
public final class ProcessTree {

    private static final Path PROC = Path.of("/proc");
    private static final boolean HAS_PROC = ProcessTable.available();

    private final ProcessHandle root;
    private final String token;
    private final long forksBeforeSpawn;
    private final long tasksBeforeSpawn;
    private final Set<ProcessHandle> snapshots = new LinkedHashSet<>();
    /** The child's start time in clock ticks, read when first needed (0 until then). */
    private volatile long rootStartTicks;

    /**
     * What a lookup needs to know about the host just before a spawn; take it with {@link #beforeSpawn()}.
     *
     * @param forks {@link #forksSinceBoot()}, or -1
     * @param tasks the number of tasks alive, or -1
     */
    public record SpawnMark(long forks, long tasks) {
        /** Nothing known: every lookup reads the whole process table. */
        public static final SpawnMark UNKNOWN = new SpawnMark(-1, -1);
    }

    /**
     * @param root  the child process
     * @param token the value of {@value ProcessSpec#TOKEN_ENV} that marks this child's tree
     * @param mark  {@link #beforeSpawn()} taken just before the child was spawned
     */
    public ProcessTree(ProcessHandle root, String token, SpawnMark mark) {
        this.root = Objects.requireNonNull(root, "root");
        this.token = Objects.requireNonNull(token, "token");
        this.forksBeforeSpawn = mark.forks();
        this.tasksBeforeSpawn = mark.tasks();
    }

    /**
     * A tree whose lookups read the whole process table (no count of live tasks before the spawn).
     *
     * @param forksBeforeSpawn {@link #forksSinceBoot()} read just before the child was spawned, or -1
     */
    public ProcessTree(ProcessHandle root, String token, long forksBeforeSpawn) {
        this(root, token, new SpawnMark(forksBeforeSpawn, -1));
        // Read while the child is young: once it has exited and been reaped its start time is gone.
        startTicks();
    }

    /** Read just before spawning a child, and passed to its tree: it scopes the child's lookups. */
    public static SpawnMark beforeSpawn() {
        return HAS_PROC ? new SpawnMark(ProcessTable.forksSinceBoot(), ProcessTable.tasksAlive()) : SpawnMark.UNKNOWN;
    }

    /**
     * How many processes and threads the host has created since boot, or -1 where that is unknown (off Linux).
     */
    public static long forksSinceBoot() {
        return HAS_PROC ? ProcessTable.forksSinceBoot() : -1;
    }

    /**
     * The processes of the tree left alive after the child exited.
     *
     * @param exitSeenNanos a {@link System#nanoTime()} at which the child had already exited
     *
     * <p>When the host created exactly one process between the spawn and now, that one was the child: it forked
     * nothing (not even a thread), so nothing can be left, and the answer costs one read of
     * {@code /proc/stat}. Otherwise the tree is looked up as in {@link #alive()}, but from a pass over
     * {@code /proc} begun after {@code exitSeenNanos}: an older pass could miss a descendant forked just before
     * the exit. Children that exit together share such a pass.
     */
    public List<ProcessHandle> aliveAfterExit(long exitSeenNanos) {
        if (forksBeforeSpawn >= 0 && ProcessTable.forksSinceBoot() == forksBeforeSpawn + 1) {
            return List.of();
        }
        return alive(HAS_PROC ? ProcessTable.takenAfter(exitSeenNanos) : null);
    }

    /**
     * Records the current members of the tree, so that they are still known after being re-parented.
     *
     * @param passAfterNanos a {@link System#nanoTime()}: the members are read from a pass over {@code /proc}
     *                       begun at or after it, so nothing forked before that moment is missed
     */
    public void snapshot(long passAfterNanos) {
        List<ProcessHandle> now = members(HAS_PROC ? ProcessTable.takenAfter(passAfterNanos) : null);
        synchronized (snapshots) {
            snapshots.addAll(now);
        }
    }

    /**
     * The processes of the tree alive now, the child first if it is alive.
     *
     * @param passAfterNanos as for {@link #snapshot(long)}
     */
    public List<ProcessHandle> alive(long passAfterNanos) {
        return alive(HAS_PROC ? ProcessTable.takenAfter(passAfterNanos) : null);
    }

    private List<ProcessHandle> alive(ProcessTable table) {
        Set<ProcessHandle> tree = new LinkedHashSet<>();
        tree.add(root);
        tree.addAll(members(table));
        synchronized (snapshots) {
            tree.addAll(snapshots);
        }
        List<ProcessHandle> alive = new ArrayList<>();
        for (ProcessHandle handle : tree) {
            if (isAlive(handle)) {
                alive.add(handle);
            }
        }
        return alive;
    }

    private List<ProcessHandle> members(ProcessTable table) {
        // Descendants by parent pid only while the child lives: once it is gone its pid may belong to another
        // process, whose children are none of ours.
        boolean rootAlive = root.isAlive();
        if (table == null) {
            return rootAlive ? root.descendants().toList() : List.of();
        }
        ProcessTable.Candidates candidates = table.createdAfter(root.pid(), forksBeforeSpawn, tasksBeforeSpawn);
        Set<Long> pids = rootAlive ? table.descendantsOf(root.pid(), candidates.pids()) : new LinkedHashSet<>();
        // Scoped candidates were all created after the child: no start time to compare with.
        pids.addAll(table.carriersOf(token, candidates.scoped() ? 0 : startTicks(), candidates.pids()));
        pids.remove(root.pid());
        return pids.stream().map(ProcessHandle::of).flatMap(Optional::stream).toList();
    }

    /**
     * The child's start time, read once while it is alive; 0 (earlier than every process, so that more
     * environments are read, never fewer) when it could not be read.
     */
    private long startTicks() {
        long ticks = rootStartTicks;
        if (ticks == 0 && HAS_PROC) {
            ticks = ProcessTable.startTicksOf(root.pid());
            // A reused pid would give a later start: trust the read only while the child is still alive.
            if (ticks > 0 && root.isAlive()) {
                rootStartTicks = ticks;
            } else {
                ticks = 0;
            }
        }
        return ticks;
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
