package org.metaruntime.supervisor.internal.proc;

import java.util.List;
import java.util.Objects;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * The processes of one child's tree: the child, its descendants, and descendants that were re-parented after their
 * parent died (they vanish from {@link ProcessHandle#descendants()}). The child is started with
 * {@value ProcessSpec#TOKEN_ENV}{@code =<unique token>} in its environment, which its descendants inherit.
 *
 * <p>The only door into this package: on Linux a tree is found through {@code /proc} (every descendant plus every
 * process whose initial environment holds the token, reading only the processes created after the child);
 * elsewhere it is the current descendants plus the snapshots taken so far. {@link #of} picks the implementation
 * once for the host. Implementations are thread-safe.
 *
 * <pre>{@code
 * ProcessTree.SpawnMark mark = ProcessTree.beforeSpawn();
 * Process child = builder.start();
 * ProcessTree tree = ProcessTree.of(child.toHandle(), token, mark);
 * tree.snapshot(System.nanoTime());                 // before SIGTERM
 * List<ProcessHandle> left = tree.alive(System.nanoTime());
 * }</pre>
 */
public interface ProcessTree {

    /**
     * What a lookup needs to know about the host just before a spawn; take it with {@link #beforeSpawn()}.
     *
     * @param forks {@link #forksSinceBoot()}, or -1
     * @param tasks the number of tasks alive, or -1
     */
    record SpawnMark(long forks, long tasks) {
        /** Nothing known: every lookup reads the whole process table. */
        public static final SpawnMark UNKNOWN = new SpawnMark(-1, -1);
    }

    /**
     * The tree of {@code root}.
     *
     * @param root  the child process
     * @param token the value of {@value ProcessSpec#TOKEN_ENV} that marks this child's tree
     * @param mark  {@link #beforeSpawn()} taken just before the child was spawned
     */
    static ProcessTree of(ProcessHandle root, String token, SpawnMark mark) {
        Objects.requireNonNull(mark, "mark");
        return ProcTree.HAS_PROC ? new ProcTree(root, token, mark) : new HandleTree(root);
    }

    /** Read just before spawning a child, and passed to {@link #of}: it scopes the child's lookups. */
    static SpawnMark beforeSpawn() {
        return ProcTree.HAS_PROC ? new SpawnMark(ProcessTable.forksSinceBoot(), ProcessTable.tasksAlive())
                : SpawnMark.UNKNOWN;
    }

    /** How many processes and threads the host has created since boot, or -1 where that is unknown (off Linux). */
    static long forksSinceBoot() {
        return ProcTree.HAS_PROC ? ProcessTable.forksSinceBoot() : -1;
    }

    /** True where the process table can be read ({@code /proc}): trees then include re-parented descendants. */
    static boolean readsProcessTable() {
        return ProcTree.HAS_PROC;
    }

    /**
     * True when the process exists and is not a zombie. {@link ProcessHandle#isAlive()} reports a zombie (exited,
     * not yet reaped) as alive; where the process table can be read, its state there tells it apart.
     */
    static boolean isAlive(ProcessHandle handle) {
        return ProcTree.HAS_PROC ? ProcTree.isAliveInTable(handle) : handle.isAlive();
    }

    /**
     * The processes of the tree left alive after the child exited.
     *
     * @param exitSeenNanos a {@link System#nanoTime()} at which the child had already exited
     */
    List<ProcessHandle> aliveAfterExit(long exitSeenNanos);

    /**
     * Records the current members of the tree, so that they are still known after being re-parented.
     *
     * @param passAfterNanos a {@link System#nanoTime()}: the members are read from a look at the process table
     *                       begun at or after it, so nothing forked before that moment is missed
     */
    void snapshot(long passAfterNanos);

    /**
     * The processes of the tree alive now, the child first if it is alive.
     *
     * @param passAfterNanos as for {@link #snapshot(long)}
     */
    List<ProcessHandle> alive(long passAfterNanos);
}
