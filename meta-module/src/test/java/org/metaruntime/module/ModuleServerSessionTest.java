package org.metaruntime.module;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The protocol answers of one session, over in-memory streams. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModuleServerSessionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final ModuleServer SERVER = ModuleServer.builder("unit").version("2.3.4")
            .tool(Tool.of("count", "{\"type\":\"object\"}").withDescription("Counts.")
                    .withOutputSchema("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}"),
                    a -> Map.of("n", a.size()))
            .tool("refuse", "{\"type\":\"object\"}", a -> {
                throw new ToolException("no, thank you");
            })
            .tool("explode", "{\"type\":\"object\"}", a -> {
                throw new IllegalStateException("boom");
            })
            .tool("list", "{\"type\":\"object\"}", a -> java.util.List.of(1, 2))
            .tool("result", "{\"type\":\"object\"}", a -> ToolResult.error("as a value"))
            .build();

    private record Session(Map<String, JsonNode> answers, String log) {
    }

    private static Session session(String... lines) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        SERVER.serve(new ByteArrayInputStream((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8)), out,
                new PrintStream(log, true, StandardCharsets.UTF_8));
        Map<String, JsonNode> answers = new HashMap<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                JsonNode answer = JSON.readTree(line);
                answers.put(answer.get("id").asText(), answer);
            }
        }
        return new Session(answers, log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void initializeNegotiatesAndTheListFollowsTheRevision() throws Exception {
        Session modern = session(ChildModule.initialize("2025-06-18"),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", ChildModule.call(2, "count", "{\"a\":1,\"b\":2}"));
        assertThat(modern.answers().get("0").at("/result/protocolVersion").asText()).isEqualTo("2025-06-18");
        assertThat(modern.answers().get("0").at("/result/serverInfo/version").asText()).isEqualTo("2.3.4");
        assertThat(modern.answers().get("0").at("/result/capabilities/tools").isObject()).isTrue();
        assertThat(modern.answers().get("1").at("/result/tools/0/description").asText()).isEqualTo("Counts.");
        assertThat(modern.answers().get("1").at("/result/tools/0/outputSchema").isObject()).isTrue();
        assertThat(modern.answers().get("2").at("/result/structuredContent/n").asInt()).isEqualTo(2);

        Session old = session(ChildModule.initialize("2025-03-26"),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", ChildModule.call(2, "count", "{}"));
        assertThat(old.answers().get("1").at("/result/tools/0").has("outputSchema")).isFalse();
        assertThat(old.answers().get("2").at("/result").has("structuredContent")).isFalse();
        assertThat(old.answers().get("2").at("/result/content/0/text").asText()).isEqualTo("{\"n\":0}");

        Session unknown = session(ChildModule.initialize("1999-01-01"));
        assertThat(unknown.answers().get("0").at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
    }

    @Test
    void failuresAreToolResultsAndProtocolErrorsAreJsonRpcErrors() throws Exception {
        Session s = session(ChildModule.call(1, "refuse", "{}"), ChildModule.call(2, "explode", "{}"),
                ChildModule.call(3, "nope", "{}"), ChildModule.call(4, "count", "[1]"),
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}",
                ChildModule.call(7, "list", "{}"), ChildModule.call(8, "result", "{}"),
                "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertThat(s.answers().get("1").at("/result/isError").asBoolean()).isTrue();
        assertThat(s.answers().get("1").at("/result/content/0/text").asText()).isEqualTo("no, thank you");
        assertThat(s.answers().get("2").at("/result/content/0/text").asText()).contains("boom");
        assertThat(s.log()).contains("tool explode failed").contains("IllegalStateException");
        assertThat(s.answers().get("3").at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(s.answers().get("4").at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(s.answers().get("5").at("/error/code").asInt()).isEqualTo(-32601);
        assertThat(s.answers().get("6").get("result").isEmpty()).isTrue();
        assertThat(s.answers().get("7").at("/result/content/0/text").asText()).isEqualTo("[1,2]");
        assertThat(s.answers().get("8").at("/result/isError").asBoolean()).isTrue();
        assertThat(s.answers()).hasSize(8);
        assertThat(s.log()).contains("not a JSON-RPC 2.0 request");
    }

    @Test
    void aCallBeyondTheWorkersAndTheQueueIsRefusedAtOnce() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        ModuleServer one = ModuleServer.builder("one").maxConcurrentCalls(1).maxQueuedCalls(0)
                .tool("wait", "{\"type\":\"object\"}", a -> {
                    release.await();
                    return "done";
                }).build();
        java.io.PipedOutputStream toServer = new java.io.PipedOutputStream();
        java.io.PipedInputStream in = new java.io.PipedInputStream(toServer, 1 << 16);
        java.io.PipedInputStream fromServer = new java.io.PipedInputStream(1 << 16);
        java.io.PipedOutputStream out = new java.io.PipedOutputStream(fromServer);
        Thread serving = new Thread(() -> one.serve(in, out, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)));
        serving.start();
        java.io.BufferedReader answers = new java.io.BufferedReader(new java.io.InputStreamReader(fromServer,
                StandardCharsets.UTF_8));
        toServer.write((ChildModule.call(1, "wait", "{}") + "\n" + ChildModule.call(2, "wait", "{}") + "\n")
                .getBytes(StandardCharsets.UTF_8));
        toServer.flush();
        JsonNode refused = JSON.readTree(answers.readLine());
        assertThat(refused.get("id").asInt()).isEqualTo(2);
        assertThat(refused.at("/error/code").asInt()).isEqualTo(-32000);
        assertThat(refused.at("/error/message").asText()).contains("busy");
        release.countDown();
        assertThat(JSON.readTree(answers.readLine()).at("/result/content/0/text").asText()).isEqualTo("done");
        toServer.close();
        serving.join(30_000);
        assertThat(serving.isAlive()).isFalse();
    }

    @Test
    void definitionsAreChecked() {
        assertThatThrownBy(() -> Tool.of("bad name", "{\"type\":\"object\"}")).hasMessageContaining("bad name");
        assertThatThrownBy(() -> Tool.of("t", "{\"type\":\"string\"}")).hasMessageContaining("\"type\": \"object\"");
        assertThatThrownBy(() -> Tool.of("t", "{nope")).hasMessageContaining("not JSON");
        assertThatThrownBy(() -> ModuleServer.builder("x").tool("a", "{\"type\":\"object\"}", a -> "")
                .tool("a", "{\"type\":\"object\"}", a -> "")).hasMessageContaining("added twice");
        assertThatThrownBy(() -> ModuleServer.builder("x").build()).hasMessageContaining("no tool");
        assertThat(SERVER.tools()).extracting(Tool::name).containsExactly("count", "refuse", "explode", "list", "result");
    }

    @Test
    void aBuilderRefusesAnOutOfRangeLimitNamingIt() {
        ModuleServer.Builder b = ModuleServer.builder("limits");
        assertThatThrownBy(() -> b.maxConcurrentCalls(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConcurrentCalls must be at least 1, got 0");
        assertThatThrownBy(() -> b.maxQueuedCalls(-1)).hasMessage("maxQueuedCalls must not be negative, got -1");
        assertThatThrownBy(() -> b.maxLineBytes(1023)).hasMessage("maxLineBytes must be at least 1024, got 1023");
        assertThatThrownBy(() -> b.drainTimeout(java.time.Duration.ofSeconds(-1)))
                .hasMessage("drainTimeout must not be negative, got PT-1S");
    }
}
