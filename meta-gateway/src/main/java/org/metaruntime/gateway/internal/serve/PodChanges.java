package org.metaruntime.gateway.internal.serve;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.PodManifest;

/**
 * What a reload changes: the pods a new set of manifests adds, the pods it changes (same name, another manifest) and
 * the pods it removes. Where a manifest was written (its file, the lines of the pod and its tools) is not a change:
 * moving a pod to another file or adding a comment above it leaves it running. Immutable.
 *
 * @param added   the new pods' manifests, in name order
 * @param changed the changed pods' new manifests, in name order
 * @param removed the names of the pods no longer declared, in name order
 */
record PodChanges(List<PodManifest> added, List<PodManifest> changed, List<String> removed) {

    /** The components of a manifest that say where it was written, not what it runs. */
    private static final Set<String> POSITION = Set.of("file", "line");

    PodChanges {
        added = List.copyOf(added);
        changed = List.copyOf(changed);
        removed = List.copyOf(removed);
    }

    /** What serving {@code after} instead of {@code before} changes. */
    static PodChanges between(Catalog before, Catalog after) {
        List<PodManifest> added = new ArrayList<>();
        List<PodManifest> changed = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (PodManifest pod : after.pods()) {
            Optional<PodManifest> old = before.pod(pod.name());
            if (old.isEmpty()) {
                added.add(pod);
            } else if (!sameRun(old.get(), pod)) {
                changed.add(pod);
            }
        }
        for (PodManifest pod : before.pods()) {
            if (after.pod(pod.name()).isEmpty()) {
                removed.add(pod.name());
            }
        }
        return new PodChanges(added, changed, removed);
    }

    /** Whether nothing changes. */
    boolean isEmpty() {
        return added.isEmpty() && changed.isEmpty() && removed.isEmpty();
    }

    /** The pods that are new or run anew: added, then changed. */
    List<PodManifest> started() {
        List<PodManifest> started = new ArrayList<>(added);
        started.addAll(changed);
        return started;
    }

    /** For the log: {@code added a, b; changed c; removed d}. */
    String summary() {
        List<String> parts = new ArrayList<>();
        if (!added.isEmpty()) {
            parts.add("added " + String.join(", ", added.stream().map(PodManifest::name).toList()));
        }
        if (!changed.isEmpty()) {
            parts.add("changed " + String.join(", ", changed.stream().map(PodManifest::name).toList()));
        }
        if (!removed.isEmpty()) {
            parts.add("removed " + String.join(", ", removed));
        }
        return parts.isEmpty() ? "no pod changed" : String.join("; ", parts);
    }

    /**
     * Whether two manifests of one pod (or two declared tools) run it the same way: equal in everything but where they
     * were written.
     */
    static boolean sameRun(Record a, Record b) {
        for (RecordComponent component : a.getClass().getRecordComponents()) {
            if (POSITION.contains(component.getName())) {
                continue;
            }
            Object x = value(component, a);
            Object y = value(component, b);
            if (x instanceof List<?> xs && y instanceof List<?> ys && isTools(xs, ys)) {
                if (xs.size() != ys.size()) {
                    return false;
                }
                for (int i = 0; i < xs.size(); i++) {
                    if (!sameRun((DeclaredTool) xs.get(i), (DeclaredTool) ys.get(i))) {
                        return false;
                    }
                }
            } else if (!Objects.equals(x, y)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isTools(List<?> xs, List<?> ys) {
        return xs.stream().allMatch(DeclaredTool.class::isInstance) && ys.stream().allMatch(DeclaredTool.class::isInstance)
                && !(xs.isEmpty() && ys.isEmpty());
    }

    private static Object value(RecordComponent component, Record record) {
        try {
            return component.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + component.getName() + " of " + record.getClass().getSimpleName(), e);
        }
    }
}
