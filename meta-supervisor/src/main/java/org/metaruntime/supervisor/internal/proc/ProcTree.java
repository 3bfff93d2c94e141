package org.metaruntime.supervisor.internal.proc;

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

/**
 * The {@link ProcessTree} of a host with {@code /proc} (Linux): every descendant of the child plus every process
 * whose initial environment ({@code /proc/<pid>/environ}) holds the token, from a shared pass over {@code /proc}
 * begun after the moment the caller names. Only processes created after the child can be either, so only they are
 * read: those in the child's pid range (see {@link ProcessTable}), or, when that range cannot be trusted, those
 * started no earlier than the child. A descendant that later changes its own environment is still found; one
 * started with a cleared environment (or without the token) is found only while it is still a descendant.
 * Thread-safe.
 */
final class ProcTree implements ProcessTree {

    private static final Path PROC = Path.of("/proc");
    static final boolean HAS_PROC = ProcessTable.available();

    private final ProcessHandle root;
    private final String token;
    private final long forksBeforeSpawn;
    private final long tasksBeforeSpawn;
    private final Set<ProcessHandle> snapshots = new LinkedHashSet<>();
    /** The child's start time in clock ticks, read when first needed (0 until then). */
    private volatile long rootStartTicks;

    ProcTree(ProcessHandle root, String token, SpawnMark mark) {
        this.root = Objects.requireNonNull(root, "root");
        this.token = Objects.requireNonNull(token, "token");
        this.forksBeforeSpawn = mark.forks();
        this.tasksBeforeSpawn = mark.tasks();
    }

    /**
     * A tree whose lookups read the whole process table (no count of live tasks before the spawn).
     *
     * @param forksBeforeSpawn {@link ProcessTree#forksSinceBoot()} read just before the child was spawned, or -1
     */
    ProcTree(ProcessHandle root, String token, long forksBeforeSpawn) {
        this(root, token, new SpawnMark(forksBeforeSpawn, -1));
        // Read while the child is young: once it has exited and been reaped its start time is gone.
        startTicks();
    }

    /**
     * {@inheritDoc}
     *
     * <p>When the host created exactly one process between the spawn and now, that one was the child: it forked
     * nothing (not even a thread), so nothing can be left, and the answer costs one read of
     * {@code /proc/stat}. Otherwise the tree is looked up as in {@link #alive(long)}, but from a pass over
     * {@code /proc} begun after {@code exitSeenNanos}: an older pass could miss a descendant forked just before
     * the exit. Children that exit together share such a pass.
     */
    @Override
    public List<ProcessHandle> aliveAfterExit(long exitSeenNanos) {
        if (forksBeforeSpawn >= 0 && ProcessTable.forksSinceBoot() == forksBeforeSpawn + 1) {
            return List.of();
        }
        return alive(ProcessTable.takenAfter(exitSeenNanos));
    }

    @Override
    public void snapshot(long passAfterNanos) {
        List<ProcessHandle> now = members(ProcessTable.takenAfter(passAfterNanos));
        synchronized (snapshots) {
            snapshots.addAll(now);
        }
    }

    @Override
    public List<ProcessHandle> alive(long passAfterNanos) {
        return alive(ProcessTable.takenAfter(passAfterNanos));
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
            if (isAliveInTable(handle)) {
                alive.add(handle);
            }
        }
        return alive;
    }

    private List<ProcessHandle> members(ProcessTable table) {
        // Descendants by parent pid only while the child lives: once it is gone its pid may belong to another
        // process, whose children are none of ours.
        boolean rootAlive = root.isAlive();
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
        if (ticks == 0) {
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

    /** {@link ProcessTree#isAlive}: a zombie's state in {@code /proc/<pid>/stat} tells it apart. */
    static boolean isAliveInTable(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
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
