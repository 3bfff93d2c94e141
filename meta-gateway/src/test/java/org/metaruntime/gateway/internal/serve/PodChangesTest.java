package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;

/**
 * What a reload changes: a pod moved to another file of its folder, or below a comment, is the same; anything it runs
 * by (its environment, a tool's schema, its folder as default workdir) is a change.
 */
class PodChangesTest {

    @TempDir
    Path dir;

    private static final String POD = """
            apiVersion: mcp-meta/v1
            kind: ToolPod
            metadata: { name: %s }
            spec:
              command: ["python3", "pod.py"]
              env: { LEVEL: "%s" }
              tools:
                - name: echo
                  inputSchema: { type: object, properties: { text: { type: %s } } }
            """;

    private Catalog catalog(String folder, String... files) throws IOException {
        Path path = Files.createDirectories(dir.resolve(folder));
        for (int i = 0; i < files.length; i += 2) {
            Files.writeString(path.resolve(files[i]), files[i + 1]);
        }
        Catalog catalog = Catalog.load(List.of(path), null, "__");
        assertThat(catalog.problems()).isEmpty();
        return catalog;
    }

    @Test
    void whereAManifestIsWrittenIsNoChange() throws IOException {
        Catalog before = catalog("a", "one.yaml", POD.formatted("one", "info", "string"));
        Files.delete(dir.resolve("a").resolve("one.yaml"));
        Catalog after = catalog("a", "renamed.yaml", "# moved, with a comment\n\n" + POD.formatted("one", "info", "string"));
        PodChanges changes = PodChanges.between(before, after);
        assertThat(changes.isEmpty()).as(changes.summary()).isTrue();
        assertThat(changes.summary()).isEqualTo("no pod changed");
    }

    @Test
    void addedChangedAndRemovedPodsAreTold() throws IOException {
        Catalog before = catalog("a", "one.yaml", POD.formatted("one", "info", "string"),
                "two.yaml", POD.formatted("two", "info", "string"), "three.yaml", POD.formatted("three", "info", "string"));
        Files.delete(dir.resolve("a").resolve("three.yaml"));
        Catalog after = catalog("a", "one.yaml", POD.formatted("one", "debug", "string"),
                "two.yaml", POD.formatted("two", "info", "number"), "four.yaml", POD.formatted("four", "info", "string"));
        PodChanges changes = PodChanges.between(before, after);
        assertThat(changes.added()).extracting(PodManifest::name).containsExactly("four");
        assertThat(changes.changed()).extracting(PodManifest::name).containsExactly("one", "two");
        assertThat(changes.removed()).containsExactly("three");
        assertThat(changes.started()).extracting(PodManifest::name).containsExactly("four", "one", "two");
        assertThat(changes.summary()).isEqualTo("added four; changed one, two; removed three");
    }
}
