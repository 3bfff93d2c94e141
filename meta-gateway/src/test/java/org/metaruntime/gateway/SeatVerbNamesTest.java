package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod's seat verbs ({@code <seat>.<verb>}, a dot clients refuse) are served as {@code <pod>__<seat>_<verb>}; an
 * outward name taken twice that way is a validation error. Nothing is spawned.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SeatVerbNamesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static String pod(String name, String... tools) {
        StringBuilder yaml = new StringBuilder("""
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: %s }
                spec:
                  command: ["python3", "-c", "raise SystemExit('never started by these tests')"]
                  tools:
                """.formatted(name));
        for (String tool : tools) {
            yaml.append("    - name: ").append(tool).append("\n      inputSchema: { type: object }\n");
        }
        return yaml.toString();
    }

    @Test
    void aSeatVerbIsValidAndNamedWithAnUnderscoreOutward() throws IOException {
        Files.writeString(dir.resolve("text.yaml"), pod("text", "text.upper", "storage.read-all", "echo"));
        ValidationReport report = MetaGateway.builder().manifests(dir).validate();
        assertThat(report.problems()).isEmpty();
        assertThat(report.schemaHashes()).containsOnlyKeys("text__text_upper", "text__storage_read-all", "text__echo");
    }

    @Test
    void aSeatVerbWhoseOutwardNameIsTakenIsAValidationError() throws IOException {
        Files.writeString(dir.resolve("text.yaml"), pod("text", "text.upper", "text_upper"));
        List<String> problems = MetaGateway.builder().manifests(dir).validate().problems().stream()
                .map(ManifestProblem::toString).toList();
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)).contains("outward tool name \"text__text_upper\" of pod text tool text_upper collides with"
                + " pod text tool text.upper");
    }

    @Test
    void aNameWithTwoDotsIsNeitherASeatVerbNorAClientName() throws IOException {
        Files.writeString(dir.resolve("text.yaml"), pod("text", "text.upper.all"));
        List<String> problems = MetaGateway.builder().manifests(dir).validate().problems().stream()
                .map(ManifestProblem::toString).toList();
        assertThat(problems).singleElement().asString().contains("tool name \"text.upper.all\" is not accepted by clients");
    }

    @Test
    void theGatewayListsTheSeatVerbUnderItsOutwardName() throws Exception {
        Files.writeString(dir.resolve("text.yaml"), pod("text", "text.upper"));
        try (MetaGateway gateway = MetaGateway.builder().manifests(dir).build()) {
            PipedInputStream in = new PipedInputStream(1 << 16);
            OutputStream toGateway = new PipedOutputStream(in);
            PipedInputStream out = new PipedInputStream(1 << 16);
            Serving serving = gateway.serveStdio(in, new PipedOutputStream(out));
            BufferedReader fromGateway = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8));
            toGateway.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n".getBytes(StandardCharsets.UTF_8));
            toGateway.flush();
            JsonNode listed = JSON.readTree(fromGateway.readLine());
            List<String> names = new ArrayList<>();
            listed.at("/result/tools").forEach(t -> names.add(t.get("name").asText()));
            assertThat(names).containsExactly("meta__status", "text__text_upper");
            toGateway.close();
            assertThat(serving.awaitEnd(Duration.ofSeconds(10))).isTrue();
        }
    }
}
