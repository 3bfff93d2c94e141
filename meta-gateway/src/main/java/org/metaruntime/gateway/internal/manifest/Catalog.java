package org.metaruntime.gateway.internal.manifest;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.gateway.ManifestProblem;

/**
 * Every pod of a gateway, read from manifest folders and an optional Claude Desktop config, with the
 * problems found in each file and across files (duplicate pod names, outward name collisions), and the one index
 * of its pods by name ({@link #pod(String)}): every part of the gateway that asks which pods there are asks it.
 * An immutable value; thread-safe.
 */
public final class Catalog {

    /** The name of the gateway's own status tool, without the pod part. */
    public static final String STATUS_TOOL = "status";

    private final List<PodManifest> pods;
    private final List<ManifestProblem> problems;
    private final String separator;
    private final Map<String, PodManifest> byName;

    /**
     * @param pods      the valid pods, in name order (a second pod of the same name is not indexed)
     * @param problems  every problem, in file and line order; the gateway serves only when there is none
     * @param separator what joins a pod's name and a tool's name in an outward name
     */
    public Catalog(List<PodManifest> pods, List<ManifestProblem> problems, String separator) {
        this.pods = List.copyOf(pods);
        this.problems = List.copyOf(problems);
        this.separator = separator;
        Map<String, PodManifest> index = new LinkedHashMap<>();
        for (PodManifest pod : this.pods) {
            index.putIfAbsent(pod.name(), pod);
        }
        this.byName = java.util.Collections.unmodifiableMap(index);
    }

    /** The valid pods, in name order. */
    public List<PodManifest> pods() {
        return pods;
    }

    /** Every problem, in file and line order; the gateway serves only when there is none. */
    public List<ManifestProblem> problems() {
        return problems;
    }

    /** What joins a pod's name and a tool's name in an outward name. */
    public String separator() {
        return separator;
    }

    /** Reads every {@code *.yaml} / {@code *.yml} file of {@code folders} and the {@code claudeConfig} (may be null). */
    public static Catalog load(List<Path> folders, Path claudeConfig, String separator) {
        return load(folders, claudeConfig, separator, false);
    }

    /**
     * Like {@link #load(List, Path, String)}; with {@code checkPrograms}, a pod whose program cannot be found or run
     * is a problem too (a pod that cannot start is otherwise found when it starts).
     */
    public static Catalog load(List<Path> folders, Path claudeConfig, String separator, boolean checkPrograms) {
        Problems problems = new Problems();
        List<PodManifest> pods = new ArrayList<>();
        for (Path folder : folders) {
            if (!Files.isDirectory(folder)) {
                problems.add(folder, 1, "manifest folder does not exist or is not a directory");
                continue;
            }
            for (Path file : manifestFiles(folder, problems)) {
                parse(file, false, problems).ifPresent(tree -> ManifestReader.read(tree, problems, checkPrograms).ifPresent(pods::add));
            }
        }
        if (claudeConfig != null) {
            parse(claudeConfig, true, problems).ifPresent(tree -> pods.addAll(ClaudeConfigReader.read(tree, problems, checkPrograms)));
        }
        List<PodManifest> unique = unique(pods, problems);
        collisions(unique, separator, problems);
        unique.sort(Comparator.comparing(PodManifest::name));
        return new Catalog(unique, problems.sorted(), separator);
    }

    /** How many tools the manifests declare. */
    public int declaredTools() {
        return pods.stream().mapToInt(p -> p.tools().size()).sum();
    }

    /** The pod called {@code name}. */
    public Optional<PodManifest> pod(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Whether a pod called {@code name} is declared. */
    public boolean has(String name) {
        return byName.containsKey(name);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Catalog that && pods.equals(that.pods) && problems.equals(that.problems)
                && Objects.equals(separator, that.separator);
    }

    @Override
    public int hashCode() {
        return Objects.hash(pods, problems, separator);
    }

    @Override
    public String toString() {
        return "Catalog[pods=" + byName.keySet() + ", problems=" + problems.size() + ", separator=" + separator + "]";
    }

    private static List<Path> manifestFiles(Path folder, Problems problems) {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(folder, "*.{yaml,yml}")) {
            stream.forEach(p -> {
                if (Files.isRegularFile(p)) {
                    files.add(p);
                }
            });
        } catch (IOException e) {
            problems.add(folder, 1, "cannot list the folder: " + e.getMessage());
        }
        files.sort(Comparator.comparing(Path::toString));
        return files;
    }

    private static Optional<LocatedTree> parse(Path file, boolean json, Problems problems) {
        try {
            return Optional.of(json ? LocatedTree.readJson(file) : LocatedTree.readYaml(file));
        } catch (LocatedTree.SyntaxException e) {
            problems.add(file, e.line(), e.getMessage());
        } catch (IOException e) {
            problems.add(file, 1, "cannot read the file: " + e.getMessage());
        }
        return Optional.empty();
    }

    private static List<PodManifest> unique(List<PodManifest> pods, Problems problems) {
        Map<String, PodManifest> byName = new HashMap<>();
        List<PodManifest> out = new ArrayList<>();
        for (PodManifest pod : pods) {
            PodManifest first = byName.putIfAbsent(pod.name(), pod);
            if (first != null) {
                problems.add(pod.file(), pod.line(), "duplicate pod name \"" + pod.name() + "\": already declared at "
                        + first.file() + ":" + first.line());
            } else {
                out.add(pod);
            }
        }
        return out;
    }

    private static void collisions(List<PodManifest> pods, String separator, Problems problems) {
        Map<String, String> owners = new HashMap<>();
        owners.put(Names.outward(Names.RESERVED_POD, separator, STATUS_TOOL), "the gateway's own status tool");
        for (PodManifest pod : pods) {
            for (DeclaredTool tool : pod.tools()) {
                String outward = Names.outward(pod.name(), separator, tool.name());
                if (!Names.clientSafe(outward)) {
                    problems.add(pod.file(), tool.line(), "outward tool name \"" + outward + "\" is not accepted by clients: "
                            + Names.rule());
                    continue;
                }
                String here = "pod " + pod.name() + " tool " + tool.name() + " (" + pod.file() + ":" + tool.line() + ")";
                String first = owners.putIfAbsent(outward, here);
                if (first != null) {
                    problems.add(pod.file(), tool.line(), "outward tool name \"" + outward + "\" of pod " + pod.name()
                            + " tool " + tool.name() + " collides with " + first);
                }
            }
        }
    }
}
