package org.metaruntime.gateway.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A catalog's pods in name order, found by name through its index; a duplicate name is a problem, not a second pod. */
class CatalogTest {

    @TempDir
    Path dir;

    @Test
    void podsAreFoundByName() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("manifests"));
        pod(folder, "b.yaml", "beta");
        pod(folder, "a.yaml", "alpha");
        pod(folder, "c.yaml", "alpha");

        Catalog catalog = Catalog.load(List.of(folder), null, "__");

        assertThat(catalog.pods()).extracting(PodManifest::name).containsExactly("alpha", "beta");
        assertThat(catalog.pod("alpha").orElseThrow().file()).isEqualTo(folder.resolve("a.yaml"));
        assertThat(catalog.pod("beta")).isPresent();
        assertThat(catalog.has("beta")).isTrue();
        assertThat(catalog.pod("gamma")).isEmpty();
        assertThat(catalog.has("gamma")).isFalse();
        assertThat(catalog.problems()).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("duplicate pod name \"alpha\""));
    }

    @Test
    void aCatalogIsAValue() {
        Catalog empty = new Catalog(List.of(), List.of(), "__");

        assertThat(empty).isEqualTo(new Catalog(List.of(), List.of(), "__")).hasSameHashCodeAs(new Catalog(List.of(), List.of(), "__"));
        assertThat(empty).isNotEqualTo(new Catalog(List.of(), List.of(), "."));
        assertThat(empty.pod("any")).isEmpty();
    }

    private static void pod(Path folder, String file, String name) throws IOException {
        Files.writeString(folder.resolve(file), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: %s }
                spec:
                  command: ["python3", "main.py"]
                """.formatted(name));
    }
}
