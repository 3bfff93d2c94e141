package org.metaruntime.gateway;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What checking a gateway's manifests found: every problem, or the pods and declared tools when there is none.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * ValidationReport report = MetaGateway.builder().manifests(Path.of("examples/manifests")).validate();
 * report.lines().forEach(System.out::println);
 * System.exit(report.valid() ? 0 : 1);
 * }</pre>
 *
 * @param problems     every problem, in file and line order
 * @param pods         how many valid pods were read
 * @param tools        how many tools their manifests declare
 * @param schemaHashes outward tool name to the {@code sha256:} hash of its declared inputSchema, in name order
 * @param definitionHashes outward tool name to the definition hash of its declared definition (its name, description,
 *                     schemas and annotations: what a pin holds)
 */
public record ValidationReport(List<ManifestProblem> problems, int pods, int tools, Map<String, String> schemaHashes,
                               Map<String, String> definitionHashes) {

    public ValidationReport {
        problems = List.copyOf(problems);
        schemaHashes = Map.copyOf(schemaHashes);
        definitionHashes = Map.copyOf(definitionHashes);
        if (pods < 0 || tools < 0) {
            throw new IllegalArgumentException("counts must be >= 0");
        }
    }

    /** A report without definition hashes. */
    public ValidationReport(List<ManifestProblem> problems, int pods, int tools, Map<String, String> schemaHashes) {
        this(problems, pods, tools, schemaHashes, Map.of());
    }

    /** Whether there is no problem. */
    public boolean valid() {
        return problems.isEmpty();
    }

    /**
     * What {@code --validate} prints: the problems ({@code file:line: message}) when there are any; otherwise each
     * declared tool's schema hash and definition hash ({@code <outward name> sha256:... sha256:...}) and
     * {@code ok: N pods, M tools}.
     */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        if (!valid()) {
            problems.forEach(p -> lines.add(p.toString()));
            return lines;
        }
        schemaHashes.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> lines.add(e.getKey() + " " + e.getValue()
                        + (definitionHashes.containsKey(e.getKey()) ? " " + definitionHashes.get(e.getKey()) : "")));
        lines.add("ok: " + pods + (pods == 1 ? " pod, " : " pods, ") + tools + (tools == 1 ? " tool" : " tools"));
        return lines;
    }
}
