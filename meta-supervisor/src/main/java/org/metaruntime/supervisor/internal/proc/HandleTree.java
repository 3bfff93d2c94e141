package org.metaruntime.supervisor.internal.proc;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link ProcessTree} where the process table cannot be read: the child's current descendants plus the snapshots
 * taken so far (a descendant re-parented before any snapshot is not found). Thread-safe.
 */
final class HandleTree implements ProcessTree {

    private final ProcessHandle root;
    private final Set<ProcessHandle> snapshots = new LinkedHashSet<>();

    HandleTree(ProcessHandle root) {
        this.root = Objects.requireNonNull(root, "root");
    }

    @Override
    public List<ProcessHandle> aliveAfterExit(long exitSeenNanos) {
        return alive(exitSeenNanos);
    }

    @Override
    public void snapshot(long passAfterNanos) {
        List<ProcessHandle> now = descendants();
        synchronized (snapshots) {
            snapshots.addAll(now);
        }
    }

    @Override
    public List<ProcessHandle> alive(long passAfterNanos) {
        Set<ProcessHandle> tree = new LinkedHashSet<>();
        tree.add(root);
        tree.addAll(descendants());
        synchronized (snapshots) {
            tree.addAll(snapshots);
        }
        List<ProcessHandle> alive = new ArrayList<>();
        for (ProcessHandle handle : tree) {
            if (handle.isAlive()) {
                alive.add(handle);
            }
        }
        return alive;
    }

    private List<ProcessHandle> descendants() {
        // Only while the child lives: once it is gone its pid may belong to another process.
        return root.isAlive() ? root.descendants().toList() : List.of();
    }
}
