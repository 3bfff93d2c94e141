package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/**
 * The python MCP server fixture with {@code --modern}, spoken to directly (no gateway) by the TypeScript SDK v2
 * client pinned to 2026-07-28 ({@code modern.mjs}): the reference client finds it modern and lists, calls, answers
 * its input round and gets its log line, with no {@code initialize}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ModernFixtureClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void theTypeScriptClientPinnedTo2026CallsTheFixture() throws Exception {
        Path methods = dir.resolve("methods");
        List<String> command = FixtureScripts.mcpServerCommand("--modern", "--record-methods", methods.toString());
        ObjectNode script = JSON.createObjectNode().put("command", command.get(0));
        ArrayNode args = script.putArray("args");
        command.subList(1, command.size()).forEach(args::add);
        script.putObject("capabilities").putObject("elicitation");
        script.putObject("answers").putObject("elicitation/create").put("action", "accept")
                .putObject("content").put("name", "Ada");
        ArrayNode steps = script.putArray("steps");
        steps.addObject().put("op", "listTools");
        steps.addObject().put("op", "call").put("name", "echo").putObject("arguments").put("text", "héllo 世界");
        ObjectNode ask = steps.addObject().put("op", "call").put("name", "ask_client").putObject("arguments")
                .put("method", "elicitation/create");
        ask.putObject("params").put("mode", "form").put("message", "Your name?")
                .putObject("requestedSchema").put("type", "object").putObject("properties").putObject("name")
                .put("type", "string");
        steps.addObject().put("op", "call").put("name", "notify").put("logLevel", "info").putObject("arguments")
                .put("text", "logged");

        JsonNode out = NodeClient.runModern(script);

        assertThat(out.path("version").asText()).as("%s", out).isEqualTo("2026-07-28");
        assertThat(out.path("discover").path("supportedVersions").toString()).contains("2026-07-28", "2025-11-25");
        JsonNode list = out.path("steps").get(0).path("ok");
        assertThat(list.path("tools").findValuesAsText("name")).contains("echo", "ask_client");
        assertThat(out.path("steps").get(1).at("/ok/content/0/text").asText()).as("%s", out).isEqualTo("héllo 世界");
        assertThat(out.path("steps").get(2).at("/ok/structuredContent/response/content/name").asText()).as("%s", out)
                .isEqualTo("Ada");
        assertThat(out.path("inputs").get(0).path("method").asText()).isEqualTo("elicitation/create");
        assertThat(out.path("steps").get(3).at("/ok/content/0/text").asText()).isEqualTo("notified");
        assertThat(out.path("logs").findValuesAsText("data")).containsExactly("logged");
        assertThat(Files.readAllLines(methods)).extracting(l -> l.split(" ", 2)[1])
                .doesNotContain("initialize").contains("server/discover", "tools/list", "tools/call");
    }
}
