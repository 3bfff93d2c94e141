package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.gateway.MetaGateway;
import org.metaruntime.gateway.Serving;
import org.metaruntime.testing.LeakCheck;

/**
 * Every example bundle (Python, TypeScript, Java, Go twice, Rust, C, C#) answering a tool through the gateway's
 * stdio serving, each bundle a pod of its own ToolPod manifest.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class GatewayBundlesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void everyBundleAnswersThroughTheGateway() throws Exception {
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        for (Bundles.Bundle bundle : Bundles.all()) {
            Files.writeString(manifests.resolve(bundle.id() + ".yaml"), manifest(bundle), StandardCharsets.UTF_8);
        }
        try (MetaGateway gateway = MetaGateway.builder().manifests(manifests).build()) {
            PipedInputStream in = new PipedInputStream(1 << 20);
            OutputStream toGateway = new PipedOutputStream(in);
            PipedInputStream out = new PipedInputStream(1 << 20);
            Serving serving = gateway.serveStdio(in, new PipedOutputStream(out));
            BufferedReader fromGateway = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8));
            List<String> requests = new ArrayList<>();
            requests.add("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"0\"}}}");
            requests.add("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            requests.add("{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}");
            // a seat verb is served as <pod>__<seat>_<verb>
            requests.add("{\"jsonrpc\":\"2.0\",\"id\":\"seat\",\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"python__greeting_say\",\"arguments\":{\"name\":\"Ada\"}}}");
            for (Bundles.Bundle bundle : Bundles.all()) {
                requests.add("{\"jsonrpc\":\"2.0\",\"id\":\"" + bundle.id() + "\",\"method\":\"tools/call\",\"params\":"
                        + "{\"name\":\"" + bundle.id() + "__" + bundle.tool() + "\",\"arguments\":" + bundle.arguments() + "}}");
            }
            toGateway.write((String.join("\n", requests) + "\n").getBytes(StandardCharsets.UTF_8));
            toGateway.flush();
            Map<String, JsonNode> answers = new HashMap<>();
            while (answers.size() < Bundles.all().size() + 3) {
                String line = fromGateway.readLine();
                assertThat(line).as("the gateway answers (so far %s)", answers.keySet()).isNotNull();
                JsonNode message = JSON.readTree(line);
                if (message.has("id")) {
                    answers.put(message.get("id").asText(), message);
                }
            }
            List<String> listed = new ArrayList<>();
            answers.get("list").at("/result/tools").forEach(tool -> listed.add(tool.get("name").asText()));
            for (Bundles.Bundle bundle : Bundles.all()) {
                assertThat(listed).contains(bundle.id() + "__" + bundle.tool());
                JsonNode answer = answers.get(bundle.id());
                assertThat(answer.at("/result/isError").asBoolean()).as(answer.toString()).isFalse();
                assertThat(answer.at("/result/content/0/text").asText()).as(bundle.id()).contains(bundle.expected());
            }
            assertThat(listed).contains("python__greeting_say", "typescript__greeting_say");
            assertThat(answers.get("seat").at("/result/content/0/text").asText()).isEqualTo("Hello, Ada! (from Python)");
            toGateway.close();
            assertThat(serving.awaitEnd(Duration.ofSeconds(30))).isTrue();
        }
    }

    static String manifest(Bundles.Bundle bundle) throws Exception {
        StringBuilder yaml = new StringBuilder("apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata:\n  name: ")
                .append(bundle.id()).append("\n  description: ").append(JSON.writeValueAsString(bundle.language() + " bundle"))
                .append("\nspec:\n  command: ").append(JSON.writeValueAsString(bundle.command()))
                .append("\n  workdir: ").append(JSON.writeValueAsString(bundle.workdir().toString()))
                .append("\n  startupTimeout: ").append(bundle.startupTimeout().toSeconds()).append("s\n  callTimeout: 60s\n");
        if (!bundle.env().isEmpty()) {
            yaml.append("  env:\n");
            bundle.env().forEach((k, v) -> yaml.append("    ").append(k).append(": \"").append(v).append("\"\n"));
        }
        return yaml.toString();
    }
}
