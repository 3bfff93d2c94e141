package org.metaruntime.gateway.internal.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.metaruntime.testing.Tools;

/**
 * npm's own implementations as oracles ({@code src/test/oracles/oracle.mjs}, with the pinned {@code semver} and
 * {@code canonicalize} the build installs): one answer line per input line.
 */
final class Oracle {

    static final Path DIR = Path.of("src", "test", "oracles").toAbsolutePath();

    private Oracle() {
    }

    static List<String> ask(String mode, List<String> inputs, Path work) throws IOException, InterruptedException {
        assertThat(DIR.resolve("node_modules/semver/package.json")).as("npm oracles installed by the build").isRegularFile();
        assertThat(DIR.resolve("node_modules/canonicalize/package.json")).as("npm oracles installed by the build").isRegularFile();
        Path in = work.resolve(mode + "-in.txt");
        Path out = work.resolve(mode + "-out.txt");
        Path err = work.resolve(mode + "-err.txt");
        Files.writeString(in, String.join("\n", inputs) + "\n", StandardCharsets.UTF_8);
        Process node = new ProcessBuilder(Tools.required("node"), DIR.resolve("oracle.mjs").toString(), mode, in.toString())
                .directory(DIR.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        node.getOutputStream().close();
        if (!node.waitFor(60, TimeUnit.SECONDS)) {
            node.destroyForcibly().waitFor();
            throw new AssertionError("the oracle did not answer within 60 s");
        }
        assertThat(node.exitValue()).as("oracle exit; stderr: %s", Files.readString(err)).isZero();
        List<String> answers = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(answers).as("one answer per input").hasSameSizeAs(inputs);
        return answers;
    }
}
