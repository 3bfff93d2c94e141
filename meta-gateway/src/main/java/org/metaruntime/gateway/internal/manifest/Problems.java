package org.metaruntime.gateway.internal.manifest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.metaruntime.gateway.ManifestProblem;

/** Collects the problems of one validation run. Not thread-safe. */
public final class Problems {

    private final List<ManifestProblem> list = new ArrayList<>();

    /** Adds a problem at {@code file:line}. */
    public void add(Path file, int line, String message) {
        list.add(new ManifestProblem(file, line, message));
    }

    /** Adds a problem at the line of {@code pointer} in {@code tree}. */
    public void add(LocatedTree tree, String pointer, String message) {
        add(tree.file(), tree.line(pointer), message);
    }

    /** How many so far. */
    public int size() {
        return list.size();
    }

    /** The problems in file and line order. */
    public List<ManifestProblem> sorted() {
        List<ManifestProblem> copy = new ArrayList<>(list);
        copy.sort(Comparator.comparing((ManifestProblem p) -> p.file().toString()).thenComparingInt(ManifestProblem::line));
        return List.copyOf(copy);
    }
}
