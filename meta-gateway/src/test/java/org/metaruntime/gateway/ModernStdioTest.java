package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * Requests of MCP 2026-07-28 on the stdio pipe, raw: {@code server/discover} and the other methods without a
 * session, before and after a legacy {@code initialize} on the same pipe, and each error of the envelope. The
 * declared pod is never spawned.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModernStdioTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @TempDir
    Path dir;

    private MetaGateway gateway;
    private PipedGateway client;

    @BeforeEach
    void start() throws IOException {
        Files.writeString(dir.resolve("tools.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: tools }
                spec:
                  command: ["python3", "-c", "raise SystemExit('never started by these tests')"]
                  tools:
                    - name: echo
                      description: "Échos"
                      inputSchema: { type: object, required: [text], properties: { text: { type: string } } }
                """);
        gateway = MetaGateway.builder().manifests(dir).build();
        client = PipedGateway.serve(gateway);
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void stop() throws Exception {
        client.close();
    }

    private JsonNode modern(int id, String method, String params) throws IOException {
        return client.exchange("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{"
                + (params.isEmpty() ? "" : params + ",") + META + "}}");
    }

    @Test
    void discoverIsAnsweredBeforeAnyInitializeWithoutSpawningAPod() throws IOException {
        JsonNode answer = modern(1, "server/discover", "");
        assertThat(answer.get("id").asInt()).isEqualTo(1);
        JsonNode result = answer.get("result");
        assertThat(result.get("resultType").asText()).isEqualTo("complete");
        assertThat(result.get("supportedVersions")).containsExactly(
                JSON.valueToTree("2026-07-28"), JSON.valueToTree("2025-11-25"), JSON.valueToTree("2025-06-18"),
                JSON.valueToTree("2025-03-26"), JSON.valueToTree("2024-11-05"));
        assertThat(result.at("/capabilities/tools/listChanged").asBoolean()).isTrue();
        assertThat(result.at("/capabilities/resources/subscribe").isBoolean()).isTrue();
        assertThat(result.at("/capabilities/resources/subscribe").asBoolean()).isFalse();
        assertThat(result.at("/capabilities/prompts/listChanged").asBoolean()).isTrue();
        assertThat(result.at("/capabilities/logging").isObject()).isTrue();
        assertThat(result.at("/capabilities/completions").isObject()).isTrue();
        assertThat(result.at("/capabilities").has("extensions")).isFalse();
        assertThat(result.get("instructions").asText()).startsWith("Tools of 1 pods, named <pod>__<tool>.");
        assertThat(result.get("ttlMs").asInt()).isZero();
        assertThat(result.get("cacheScope").asText()).isEqualTo("public");
        assertThat(result.at("/_meta/io.modelcontextprotocol~1serverInfo/name").asText()).isEqualTo("meta-gateway");
        assertThat(result.at("/_meta/io.modelcontextprotocol~1serverInfo/title").asText()).isEqualTo("meta-runtime gateway");
        assertThat(result.at("/_meta/io.modelcontextprotocol~1serverInfo/version").asText()).isEqualTo("0.1.0");
        assertThat(gateway.status().at("/pods/tools/state").asText()).isEqualTo("NotStarted");
    }

    @Test
    void discoverAgreesWithInitializeAndIsAnsweredAfterIt() throws IOException {
        JsonNode before = modern(1, "server/discover", "").get("result");
        JsonNode initialized = client.initialize().get("result");
        JsonNode after = modern(2, "server/discover", "").get("result");
        assertThat(after).isEqualTo(before);
        assertThat(after.get("capabilities")).isEqualTo(initialized.get("capabilities"));
        assertThat(after.get("instructions")).isEqualTo(initialized.get("instructions"));
        assertThat(after.at("/_meta/io.modelcontextprotocol~1serverInfo")).isEqualTo(initialized.get("serverInfo"));
    }

    @Test
    void modernListsNeedNoSessionAndCarryResultTypeServerInfoAndCacheHints() throws IOException {
        JsonNode tools = modern(1, "tools/list", "").get("result");
        assertThat(tools.get("resultType").asText()).isEqualTo("complete");
        assertThat(tools.at("/tools/0/name").asText()).isEqualTo("meta__status");
        assertThat(tools.at("/tools/1/name").asText()).isEqualTo("tools__echo");
        assertThat(tools.get("ttlMs").asLong()).as("every pod declares its tools").isEqualTo(300_000);
        assertThat(tools.get("cacheScope").asText()).isEqualTo("public");
        assertThat(tools.has("nextCursor")).isFalse();
        assertThat(tools.at("/_meta/io.modelcontextprotocol~1serverInfo/name").asText()).isEqualTo("meta-gateway");
        assertThat(modern(2, "tools/list", "").get("result")).isEqualTo(tools);
        for (String method : List.of("resources/list", "resources/templates/list", "prompts/list")) {
            JsonNode listed = modern(3, method, "").get("result");
            assertThat(listed.get("ttlMs").asLong()).as(method).isZero();
            assertThat(listed.get("cacheScope").asText()).as(method).isEqualTo("public");
            assertThat(listed.get("resultType").asText()).as(method).isEqualTo("complete");
        }
        JsonNode read = modern(4, "resources/read", "\"uri\":\"meta://status\"").get("result");
        assertThat(read.get("cacheScope").asText()).isEqualTo("private");
        assertThat(read.get("ttlMs").asLong()).isZero();
        JsonNode status = modern(5, "tools/call", "\"name\":\"meta__status\"").get("result");
        assertThat(status.get("resultType").asText()).isEqualTo("complete");
        assertThat(status.at("/structuredContent/pods/tools/state").asText()).isEqualTo("NotStarted");
        assertThat(status.has("ttlMs")).isFalse();
        assertThat(status.at("/_meta/io.modelcontextprotocol~1serverInfo/name").asText()).isEqualTo("meta-gateway");
    }

    @Test
    void aModernRequestCarriesItsVersionAndCapabilities() throws IOException {
        JsonNode version = client.exchange("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2025-11-25\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
        assertThat(version.at("/error/code").asInt()).isEqualTo(-32022);
        assertThat(version.at("/error/data/requested").asText()).isEqualTo("2025-11-25");
        assertThat(version.at("/error/data/supported/0").asText()).isEqualTo("2026-07-28");
        assertThat(version.at("/error/data/supported").size()).isEqualTo(5);
        JsonNode noCapabilities = client.exchange("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}");
        assertThat(noCapabilities.at("/error/code").asInt()).isEqualTo(-32602);
        JsonNode bareDiscover = client.exchange("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"server/discover\"}");
        assertThat(bareDiscover.at("/error/code").asInt()).as("server/discover is modern: it needs the envelope").isEqualTo(-32602);
        JsonNode level = client.exchange(
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                        + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},"
                        + "\"io.modelcontextprotocol/logLevel\":\"loud\"}}}");
        assertThat(level.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(level.get("id").asInt()).isEqualTo(5);
    }

    @Test
    void sessionMethodsAreNotServedToModernRequests() throws IOException {
        for (String method : List.of("ping", "logging/setLevel", "initialize", "resources/subscribe", "tools/frobnicate")) {
            JsonNode answer = modern(1, method, "");
            assertThat(answer.at("/error/code").asInt()).as(method).isEqualTo(-32601);
        }
    }

    @Test
    void taskRequestsNeedTheExtensionAndAKnownTaskId() throws IOException {
        JsonNode undeclared = modern(1, "tasks/get", "\"taskId\":\"tools+t-1\"");
        assertThat(undeclared.at("/error/code").asInt()).isEqualTo(-32021);
        assertThat(undeclared.at("/error/data/requiredCapabilities").toString())
                .isEqualTo("{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}");
        String declaring = META.replace("\"io.modelcontextprotocol/clientCapabilities\":{}",
                "\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}");
        for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
            for (String id : List.of("t-1", "tools+t-1", "nobody+t-1")) {
                JsonNode answer = client.exchange("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"" + method
                        + "\",\"params\":{\"taskId\":\"" + id + "\"," + declaring + "}}");
                assertThat(answer.at("/error/code").asInt()).as(method + " " + id).isEqualTo(-32602);
            }
        }
        assertThat(modern(3, "server/discover", "").at("/result/capabilities").has("extensions")).isFalse();
    }

    @Test
    void modernAndLegacyRequestsShareThePipe() throws IOException {
        assertThat(modern(1, "tools/list", "").at("/result/resultType").asText()).isEqualTo("complete");
        JsonNode legacy = client.initialize();
        assertThat(legacy.at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
        JsonNode legacyList = client.request("tools/list", "{}").get("result");
        assertThat(legacyList.has("resultType")).isFalse();
        assertThat(legacyList.has("ttlMs")).isFalse();
        assertThat(modern(7, "tools/list", "").at("/result/tools")).isEqualTo(legacyList.get("tools"));
    }
}
