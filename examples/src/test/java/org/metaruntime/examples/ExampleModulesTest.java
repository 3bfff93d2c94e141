package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventNormalizer;
import org.metaruntime.events.UnifiedEvent;

/**
 * Each example module spoken to by hand over its own protocol (one JSON message per line), without the
 * runtime: what the demo relies on is checked at the wire.
 */
class ExampleModulesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String initialize(String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                + version + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"0\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    }

    private static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}\n";
    }

    /** The answers by id; every line must be a JSON-RPC 2.0 response. */
    private static Map<String, JsonNode> answers(Fixtures.Run run) throws Exception {
        Map<String, JsonNode> byId = new HashMap<>();
        for (String line : run.stdout()) {
            JsonNode message = JSON.readTree(line);
            assertThat(message.path("jsonrpc").asText()).as(line).isEqualTo("2.0");
            assertThat(message.has("result") != message.has("error")).as(line).isTrue();
            byId.put(message.get("id").asText(), message);
        }
        return byId;
    }

    private static Fixtures.Run textTools(String input) throws Exception {
        Fixtures.requireOnPath("python3");
        Path dir = Fixtures.examplesDir().resolve("modules/text-tools");
        return Fixtures.runToEnd(List.of("python3", "text_tools.py"), dir, input, Map.of(), 30);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void textToolsEchoesEverySupportedProtocolVersion(String version) throws Exception {
        Fixtures.Run run = textTools(initialize(version) + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n"
                + call(3, "word_count", "{\"text\":\"a b\"}"));

        Map<String, JsonNode> answers = answers(run);
        assertThat(run.exitCode()).isZero();
        assertThat(answers.get("1").at("/result/protocolVersion").asText()).isEqualTo(version);
        assertThat(answers.get("1").at("/result/capabilities/tools").isObject()).isTrue();
        List<String> names = new ArrayList<>();
        answers.get("2").at("/result/tools").forEach(tool -> names.add(tool.get("name").asText()));
        assertThat(names).containsExactly("word_count", "reverse", "crash");
        boolean structured = version.compareTo("2025-06-18") >= 0;
        assertThat(answers.get("2").at("/result/tools/0").has("outputSchema")).isEqualTo(structured);
        assertThat(answers.get("3").at("/result/structuredContent").isObject()).isEqualTo(structured);
        assertThat(JSON.readTree(answers.get("3").at("/result/content/0/text").asText()).get("words").asInt())
                .isEqualTo(2);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void textToolsAnswersPingErrorsAndUnicodeSkipsANonJsonLineThenExitsOnEndOfInput() throws Exception {
        Fixtures.Run run = textTools("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"1999-01-01\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}\n"
                + call(2, "reverse", "{\"text\":\"añb😀\"}")
                + call(3, "reverse", "{}")
                + call(4, "nope", "{}")
                + "not json\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/list\"}\n");

        Map<String, JsonNode> answers = answers(run);
        assertThat(run.exitCode()).isZero();
        assertThat(answers.get("1").at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
        assertThat(answers.get("p").get("result").isEmpty()).isTrue();
        assertThat(answers.get("2").at("/result/content/0/text").asText()).isEqualTo("😀bña");
        assertThat(answers.get("3").at("/result/isError").asBoolean()).isTrue();
        assertThat(answers.get("4").at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(answers).doesNotContainKey("null");
        assertThat(run.stderr()).contains("skipped an input line that is not JSON: not json");
        assertThat(answers.get("5").at("/error/code").asInt()).isEqualTo(-32601);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void textToolsCrashToolExitsWithTheCodeAndNoAnswer() throws Exception {
        Fixtures.Run run = textTools(initialize("2025-06-18") + call(2, "crash", "{\"exit_code\":7}")
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n");

        assertThat(run.exitCode()).isEqualTo(7);
        // the crash call gets no answer (a ping read after it may be answered before the exit: calls run concurrently)
        assertThat(answers(run)).containsKey("1").doesNotContainKey("2");
        assertThat(run.stderr()).contains("crashing on request with exit code 7");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void javaToolsAnswersEveryRequestReadBeforeEndOfInputAndSkipsNonJsonLines() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Fixtures.Run run = Fixtures.runToEnd(
                List.of(java, "-cp", System.getProperty("java.class.path"),
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", JavaToolsServer.class.getName()),
                Fixtures.examplesDir(), initialize("2025-06-18")
                        + call(2, "sha256", "{\"text\":\"é\"}")
                        + "not json\n[1]\n\n"
                        + call(3, "stats", "{\"numbers\":[1,2,3.5]}")
                        + call(4, "stats", "{\"numbers\":\"x\"}")
                        + "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n",
                Map.of(), 45);

        Map<String, JsonNode> answers = answers(run);
        assertThat(run.exitCode()).isZero();
        assertThat(answers).containsOnlyKeys("1", "2", "3", "4", "5");
        assertThat(answers.get("1").at("/result/serverInfo/name").asText()).isEqualTo("java-tools");
        assertThat(answers.get("2").at("/result/content/0/text").asText())
                .isEqualTo("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
        assertThat(answers.get("3").at("/result/structuredContent/mean").asDouble()).isEqualTo(6.5 / 3);
        assertThat(answers.get("4").at("/result/isError").asBoolean()).isTrue();
        assertThat(run.stderr()).contains("skipped an input line that is not a JSON object");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void hostInfoPrintsOneModuleEventWithItsPreSpawnLabel() throws Exception {
        Fixtures.requireOnPath("python3");
        Fixtures.Run run = Fixtures.runToEnd(List.of("python3", "host_info.py"),
                Fixtures.examplesDir().resolve("modules/host-info"), "",
                Map.of("HOST_INFO_LABEL", "from the test", "HOST_INFO_MODULE_ID", "probe"), 30);

        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).hasSize(1);
        EventEnvelope<UnifiedEvent> event = EventNormalizer.normalize(run.stdout().get(0));
        assertThat(event.source()).isEqualTo("module");
        UnifiedEvent.Module module = (UnifiedEvent.Module) event.event();
        assertThat(module.event().module()).isEqualTo("probe");
        assertThat(module.event().eventType()).isEqualTo("host.snapshot");
        assertThat(module.event().payload().get("label").asText()).isEqualTo("from the test");
        assertThat(module.event().payload().get("pid").asLong()).isEqualTo(run.pid());
    }
}
