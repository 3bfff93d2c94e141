package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The set-ups docs/gateway.md shows in "Several replicas" are the ones that run: the HAProxy configuration is the
 * one the scale-out tests write ({@link Haproxy#config}), and the Kubernetes snippet is a piece of
 * examples/kubernetes/gateway.yaml.
 */
class ReplicasDocsTest {

    private static String chapter() throws IOException {
        String docs = Files.readString(Repo.ROOT.resolve("docs/gateway.md"), StandardCharsets.UTF_8);
        int start = docs.indexOf("\n## Several replicas\n");
        assertThat(start).as("the chapter").isPositive();
        return docs.substring(start, docs.indexOf("\n## ", start + 1));
    }

    /** The code blocks of {@code text} fenced with {@code ```language}, each with its final newline. */
    private static List<String> blocks(String text, String language) {
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        boolean wanted = false;
        for (String line : text.split("\n", -1)) {
            if (block == null && line.startsWith("```")) {
                block = new StringBuilder();
                wanted = line.substring(3).equals(language);
            } else if (block != null && line.equals("```")) {
                if (wanted) {
                    blocks.add(block.toString());
                }
                block = null;
            } else if (block != null) {
                block.append(line).append('\n');
            }
        }
        return blocks;
    }

    @Test
    void theHaproxyConfigurationIsTheOneTheTestsRun() throws IOException {
        assertThat(blocks(chapter(), "")).contains(
                Haproxy.config(":8080", List.of("10.0.0.11:3000", "10.0.0.12:3000", "10.0.0.13:3000")));
    }

    @Test
    void theKubernetesSnippetIsPartOfTheExample() throws IOException {
        String example = Files.readString(Repo.ROOT.resolve("examples/kubernetes/gateway.yaml"), StandardCharsets.UTF_8);
        List<String> yaml = blocks(chapter(), "yaml");
        assertThat(yaml).hasSize(1);
        for (String piece : yaml.get(0).split("\n          env:\n")) {
            assertThat(example).contains(piece);
        }
    }
}
