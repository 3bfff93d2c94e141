package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.ToolRole;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.gateway.MetaGateway;
import org.metaruntime.gateway.Serving;
import org.metaruntime.testing.ProcessLeaks;

/**
 * Every example bundle (Python, TypeScript, Java, Go twice, Rust, C, C#) answering a tool through one
 * {@link UnifiedRuntime}, and through the gateway's stdio serving.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class BundlesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @AfterEach
    void nothingLeft() {
        ProcessLeaks.assertNoChildProcess();
    }

    static ModuleConfig config(Bundles.Bundle bundle) {
        return ModuleConfig.builder(bundle.id()).command(bundle.command()).workdir(bundle.workdir()).env(bundle.env())
                .startupTimeout(bundle.startupTimeout()).callTimeout(Duration.ofSeconds(60)).build();
    }

    static PreSpawnData mcp(String id) {
        return new PreSpawnData(id, List.of(Map.entry("META_MODULE_BOUNDARY", "mcp")));
    }

    @Test
    void everyBundleAnswersThroughTheRuntime() throws Exception {
        MetaConfig.Builder config = MetaConfig.builder();
        List<String> ids = new ArrayList<>();
        for (Bundles.Bundle bundle : Bundles.all()) {
            config.module(config(bundle)).preSpawn(mcp(bundle.id()));
            ids.add(bundle.id());
        }
        config.discover(ids.toArray(String[]::new));
        try (UnifiedRuntime runtime = UnifiedRuntime.builder(config.build()).start()) {
            assertThat(runtime.loadedModules()).as("supervisor: %s", runtime.supervisorReport())
                    .containsExactlyInAnyOrderElementsOf(ids);
            for (Bundles.Bundle bundle : Bundles.all()) {
                McpSchema.CallToolResult result = runtime.mcp(bundle.id()).callTool(bundle.tool(),
                        JSON.readTree(bundle.arguments()));
                assertThat(result.isError()).as("%s: %s", bundle.id(), result).isNotEqualTo(Boolean.TRUE);
                assertThat(((McpSchema.TextContent) result.content().get(0)).text()).as(bundle.id())
                        .contains(bundle.expected());
                // the routed call with its projection (text that is not JSON comes back as a JSON string)
                JsonNode payload = runtime.routeModuleCall(new ModuleRouteRequest(bundle.id(), bundle.tool(),
                        JSON.readTree(bundle.arguments()))).payload();
                assertThat(payload.asText()).as(bundle.id()).contains(bundle.expected());
            }
            // seats and verbs: the Python and TypeScript bundles implement verb "say" of seat "greeting"
            assertThat(runtime.seatVerbs()).isEqualTo(Map.of("greeting",
                    Map.of("python", List.of("say"), "typescript", List.of("say"))));
            assertThat(runtime.mcp("python").role("greeting.say")).isEqualTo(new ToolRole.SeatVerb("greeting", "say"));
            assertThat(runtime.mcp("python").role("hello")).isEqualTo(new ToolRole.Own());
            Map<String, JsonNode> ready = new HashMap<>();
            for (EventEnvelope<UnifiedEvent> event : runtime.mergedEvents()) {
                if (event.event() instanceof UnifiedEvent.Module m && m.event().eventType().equals("mcp.ready")) {
                    ready.put(m.event().module(), m.event().payload());
                }
            }
            assertThat(ready.get("python").get("seat_verbs")).isEqualTo(JSON.readTree("{\"greeting\":[\"say\"]}"));
            assertThat(ready.get("python").get("tools")).isEqualTo(JSON.readTree("[\"greeting.say\",\"hello\"]"));
            assertThat(ready.get("c").has("seat_verbs")).as("omitted when there are none").isFalse();
            JsonNode said = runtime.routeModuleCall(new ModuleRouteRequest("typescript", "greeting.say",
                    JSON.readTree("{\"name\":\"Ada\"}"))).payload();
            assertThat(said.asText()).isEqualTo("Hello, Ada! (from TypeScript)");
            assertThat(runtime.shutdown().orphanProcesses()).isZero();
        }
    }

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
