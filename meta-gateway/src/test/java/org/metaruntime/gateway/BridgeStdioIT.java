package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * The bridge on the stdio pipe, raw: a real legacy python pod asks for elicitation, sampling and roots while it serves
 * a modern client's call; the client gets {@code input_required} rounds and retries with {@code requestState}. Covers
 * the first round, further rounds, partial answers, every invalid {@code requestState} (-32602, nothing changed), a
 * missing capability (-32021) and an abandoned call (-32001 to the pod, the call cancelled there). Every test checks
 * that no process is left.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BridgeStdioIT {

    static final String ELICIT = "{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Your name?\","
            + "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}}}";
    static final String SAMPLE = "{\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[{\"role\":\"user\","
            + "\"content\":{\"type\":\"text\",\"text\":\"hi ✓\"}}],\"maxTokens\":5}}";
    static final String ROOTS = "{\"method\":\"roots/list\",\"params\":{}}";
    static final String ALL_CAPABILITIES = "{\"elicitation\":{},\"sampling\":{},\"roots\":{}}";

    @TempDir
    Path dir;

    private PipedGateway client;
    private int ids;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFilesIn(() -> dir.resolve("pids"), "");

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
    }

    private void start(String callTimeout) throws IOException {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "asking", "fixture");
        Path asking = manifests.resolve("asking.yaml");
        Files.writeString(asking, Files.readString(asking).replace("callTimeout: 10s", "callTimeout: " + callTimeout));
        client = PipedGateway.serve(MetaGateway.builder().manifests(manifests).build());
    }

    /** A modern {@code tools/call} line. */
    static String call(int id, String tool, String arguments, String capabilities, String extra) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + (extra.isEmpty() ? "" : "," + extra)
                + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":" + capabilities + "}}}";
    }

    static String rounds(String... rounds) {
        return "{\"rounds\":[" + String.join(",", rounds) + "]}";
    }

    static String retryParams(JsonNode inputResponses, String state) {
        return "\"inputResponses\":" + inputResponses + ",\"requestState\":" + NodeClient.JSON.valueToTree(state);
    }

    private JsonNode first(String arguments, String capabilities) throws IOException {
        return client.exchange(call(++ids, "asking__ask", arguments, capabilities, ""));
    }

    private JsonNode retry(String arguments, JsonNode inputResponses, String state) throws IOException {
        return client.exchange(call(++ids, "asking__ask", arguments, ALL_CAPABILITIES, retryParams(inputResponses, state)));
    }

    /** What this client answers to each input request: a value per method. */
    static ObjectNode answersTo(JsonNode inputRequests) {
        ObjectNode responses = NodeClient.JSON.createObjectNode();
        for (Iterator<String> keys = inputRequests.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            responses.set(key, answerTo(inputRequests.get(key).get("method").asText()));
        }
        return responses;
    }

    static JsonNode answerTo(String method) {
        try {
            return NodeClient.JSON.readTree(switch (method) {
                case "elicitation/create" -> "{\"action\":\"accept\",\"content\":{\"name\":\"Ada ✓\"}}";
                case "sampling/createMessage" -> "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"sampled\"},"
                        + "\"model\":\"test-model\",\"stopReason\":\"endTurn\"}";
                case "roots/list" -> "{\"roots\":[{\"uri\":\"file:///work\",\"name\":\"work\"}]}";
                default -> throw new AssertionError("unexpected input request " + method);
            });
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static void assertInputRequired(JsonNode answer) {
        assertThat(answer.at("/result/resultType").asText()).as("%s", answer).isEqualTo("input_required");
        assertThat(answer.at("/result/requestState").isTextual()).as("%s", answer).isTrue();
        assertThat(answer.at("/result/_meta/io.modelcontextprotocol~1serverInfo/name").asText()).isEqualTo("meta-gateway");
        assertThat(answer.get("result").has("ttlMs")).isFalse();
        assertThat(answer.get("result").has("cacheScope")).isFalse();
    }

    @Test
    void aPodsElicitationBecomesAnInputRequiredRoundAndTheRetryGetsThePodsResult() throws Exception {
        start("10s");
        String arguments = rounds("[" + ELICIT + "]");
        JsonNode asked = first(arguments, ALL_CAPABILITIES);
        assertThat(asked.get("id").asInt()).isEqualTo(1);
        assertInputRequired(asked);
        JsonNode requests = asked.at("/result/inputRequests");
        assertThat(requests.size()).isEqualTo(1);
        JsonNode request = requests.elements().next();
        assertThat(request.get("method").asText()).isEqualTo("elicitation/create");
        assertThat(request.get("params")).as("the pod's params unchanged, its _meta aside")
                .isEqualTo(NodeClient.JSON.readTree(ELICIT).get("params"));
        JsonNode done = retry(arguments, answersTo(requests), asked.at("/result/requestState").asText());
        assertThat(done.get("id").asInt()).isEqualTo(2);
        assertThat(done.at("/result/resultType").asText()).as("%s", done).isEqualTo("complete");
        assertThat(done.at("/result/structuredContent/answers/0/0/result")).isEqualTo(answerTo("elicitation/create"));
        assertThat(done.at("/result/_meta/io.modelcontextprotocol~1serverInfo/name").asText()).isEqualTo("meta-gateway");
        assertThat(NodeClient.recorded(dir)).contains("answered elicitation/create ok");
    }

    @Test
    void aRequestWithoutTheCallsMetaIsAttributedToThePodsOnlyCall() throws Exception {
        start("10s");
        String arguments = "{\"meta\":false,\"rounds\":[[" + ROOTS + "]]}";
        JsonNode asked = first(arguments, ALL_CAPABILITIES);
        assertInputRequired(asked);
        JsonNode done = retry(arguments, answersTo(asked.at("/result/inputRequests")), asked.at("/result/requestState").asText());
        assertThat(done.at("/result/structuredContent/answers/0/0/result")).isEqualTo(answerTo("roots/list"));
    }

    @Test
    void aPodThatAsksAgainGetsASecondRoundWithNewKeysAndANewState() throws Exception {
        start("10s");
        String arguments = rounds("[" + ELICIT + "]", "[" + SAMPLE + "," + ROOTS + "]");
        JsonNode answer = first(arguments, ALL_CAPABILITIES);
        List<String> keys = new ArrayList<>();
        List<String> states = new ArrayList<>();
        int rounds = 0;
        while (answer.at("/result/resultType").asText().equals("input_required")) {
            assertThat(++rounds).as("rounds").isLessThanOrEqualTo(4);
            JsonNode requests = answer.at("/result/inputRequests");
            requests.fieldNames().forEachRemaining(key -> assertThat(keys).as("a key of an answered request again").doesNotContain(key));
            requests.fieldNames().forEachRemaining(keys::add);
            String state = answer.at("/result/requestState").asText();
            assertThat(states).doesNotContain(state);
            states.add(state);
            answer = retry(arguments, answersTo(requests), state);
        }
        assertThat(answer.at("/result/resultType").asText()).as("%s", answer).isEqualTo("complete");
        assertThat(keys).hasSize(3);
        assertThat(answer.at("/result/structuredContent/answers/0/0/result")).isEqualTo(answerTo("elicitation/create"));
        assertThat(answer.at("/result/structuredContent/answers/1/0/result")).isEqualTo(answerTo("sampling/createMessage"));
        assertThat(answer.at("/result/structuredContent/answers/1/1/result")).isEqualTo(answerTo("roots/list"));
    }

    @Test
    void aPartialRetryIsAskedAgainForWhatItLeftUnansweredAtOnce() throws Exception {
        start("10s");
        String arguments = rounds("[" + ELICIT + "," + ROOTS + "]");
        JsonNode answer = first(arguments, ALL_CAPABILITIES);
        for (int i = 0; i < 20 && answer.at("/result/inputRequests").size() < 2; i++) {
            // the pod's second request may come after the first answer: a retry answering nothing asks for both
            assertInputRequired(answer);
            answer = retry(arguments, NodeClient.JSON.createObjectNode(), answer.at("/result/requestState").asText());
        }
        assertInputRequired(answer);
        JsonNode requests = answer.at("/result/inputRequests");
        assertThat(requests.size()).isEqualTo(2);
        String elicitKey = null;
        String rootsKey = null;
        for (Iterator<String> it = requests.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (requests.get(key).get("method").asText().equals("elicitation/create")) {
                elicitKey = key;
            } else {
                rootsKey = key;
            }
        }
        ObjectNode partial = NodeClient.JSON.createObjectNode();
        partial.set(elicitKey, answerTo("elicitation/create"));
        partial.set("unknown-key", answerTo("roots/list"));
        String state = answer.at("/result/requestState").asText();
        JsonNode again = retry(arguments, partial, state);
        assertInputRequired(again);
        assertThat(again.at("/result/inputRequests").size()).as("%s", again).isEqualTo(1);
        assertThat(again.at("/result/inputRequests").get(rootsKey)).isEqualTo(requests.get(rootsKey));
        assertThat(again.at("/result/requestState").asText()).isNotEqualTo(state);
        JsonNode replayed = retry(arguments, answersTo(requests), state);
        assertThat(replayed.at("/error/code").asInt()).as("a used state: %s", replayed).isEqualTo(-32602);
        ObjectNode rest = NodeClient.JSON.createObjectNode();
        rest.set(rootsKey, answerTo("roots/list"));
        JsonNode done = retry(arguments, rest, again.at("/result/requestState").asText());
        assertThat(done.at("/result/resultType").asText()).as("%s", done).isEqualTo("complete");
        assertThat(done.at("/result/structuredContent/answers/0/0/result")).isEqualTo(answerTo("elicitation/create"));
        assertThat(done.at("/result/structuredContent/answers/0/1/result")).isEqualTo(answerTo("roots/list"));
        JsonNode afterEnd = retry(arguments, rest, again.at("/result/requestState").asText());
        assertThat(afterEnd.at("/error/code").asInt()).as("a retry after the call ended: %s", afterEnd).isEqualTo(-32602);
    }

    @Test
    void anInvalidRequestStateIsRefusedAndChangesNothing() throws Exception {
        start("10s");
        String arguments = rounds("[" + ELICIT + "]");
        JsonNode asked = first(arguments, ALL_CAPABILITIES);
        assertInputRequired(asked);
        String state = asked.at("/result/requestState").asText();
        ObjectNode responses = answersTo(asked.at("/result/inputRequests"));
        int dot = state.indexOf('.');
        char flipped = state.charAt(dot - 2) == 'A' ? 'B' : 'A';
        String tampered = state.substring(0, dot - 2) + flipped + state.substring(dot - 1);
        List<JsonNode> refused = List.of(
                retry(arguments, responses, tampered),
                retry(arguments, responses, state + "x"),
                retry(arguments, responses, "not a state"),
                retry(rounds("[" + ROOTS + "]"), responses, state),
                client.exchange(call(++ids, "fixture__echo", "{\"text\":\"x\"}", ALL_CAPABILITIES, retryParams(responses, state))));
        for (JsonNode answer : refused) {
            assertThat(answer.at("/error/code").asInt()).as("%s", answer).isEqualTo(-32602);
            assertThat(answer.at("/error/data/field").asText()).isEqualTo("requestState");
        }
        assertThat(refused.get(3).at("/error/message").asText()).contains("other arguments");
        assertThat(refused.get(4).at("/error/message").asText()).contains("another tool");
        assertThat(NodeClient.recorded(dir)).as("the parked request is still unanswered").isEmpty();
        JsonNode done = retry(arguments, responses, state);
        assertThat(done.at("/result/resultType").asText()).as("the call still waited: %s", done).isEqualTo("complete");
        JsonNode replayed = retry(arguments, responses, state);
        assertThat(replayed.at("/error/code").asInt()).as("single use: %s", replayed).isEqualTo(-32602);
    }

    @Test
    void aRequestNeedingAnUndeclaredCapabilityFailsTheCallAndIsCancelledAtThePod() throws Exception {
        start("10s");
        JsonNode refused = first(rounds("[" + ELICIT + "]"), "{\"sampling\":{}}");
        assertThat(refused.at("/error/code").asInt()).as("%s", refused).isEqualTo(-32021);
        assertThat(refused.at("/error/data/requiredCapabilities/elicitation").isObject()).as("%s", refused).isTrue();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(NodeClient.recorded(dir))
                .contains("answered elicitation/create -32601").anyMatch(line -> line.startsWith("cancelled ")));
    }

    @Test
    void aCallNobodyRetriesIsAbandonedWithinItsCallTimeout() throws Exception {
        start("1s");
        String arguments = rounds("[" + ELICIT + "," + SAMPLE + "]");
        JsonNode asked = first(arguments, ALL_CAPABILITIES);
        assertInputRequired(asked);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(NodeClient.recorded(dir))
                .contains("answered elicitation/create -32001", "answered sampling/createMessage -32001")
                .anyMatch(line -> line.startsWith("cancelled ")));
        JsonNode late = retry(arguments, answersTo(asked.at("/result/inputRequests")), asked.at("/result/requestState").asText());
        assertThat(late.at("/error/code").asInt()).as("%s", late).isEqualTo(-32602);
    }

    @Test
    void cancellingAPendingRetryCancelsTheCallAtThePod() throws Exception {
        start("10s");
        String arguments = "{\"sleep\":20,\"rounds\":[[" + ELICIT + "]]}";
        JsonNode asked = first(arguments, ALL_CAPABILITIES);
        assertInputRequired(asked);
        int retryId = ++ids;
        client.send(call(retryId, "asking__ask", arguments, ALL_CAPABILITIES,
                retryParams(answersTo(asked.at("/result/inputRequests")), asked.at("/result/requestState").asText())));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(NodeClient.recorded(dir)).contains("answered elicitation/create ok"));
        assertThat(NodeClient.recorded(dir)).noneMatch(line -> line.startsWith("cancelled "));
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + retryId
                + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(NodeClient.recorded(dir)).anyMatch(line -> line.startsWith("cancelled ")));
        JsonNode next = client.exchange(call(++ids, "asking__ask", "{\"rounds\":[]}", ALL_CAPABILITIES, ""));
        assertThat(next.get("id").asInt()).as("no answer to the cancelled retry: %s", next).isEqualTo(ids);
        assertThat(next.at("/result/resultType").asText()).isEqualTo("complete");
    }

    @Test
    void aRetryAfterThePodExitedIsRefusedAsItsCallIsGone() throws Exception {
        start("10s");
        String arguments = rounds("[" + ELICIT + "]");
        JsonNode asked = first(arguments, ALL_CAPABILITIES);
        assertInputRequired(asked);
        long pid;
        try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("pids"))) {
            pid = Long.parseLong(files.findFirst().orElseThrow().getFileName().toString());
        }
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        await().atMost(Duration.ofSeconds(20)).until(() -> client.gateway().status().at("/pods/asking/callsFailed").asInt() == 1);
        JsonNode late = retry(arguments, answersTo(asked.at("/result/inputRequests")), asked.at("/result/requestState").asText());
        assertThat(late.at("/error/code").asInt()).as("%s", late).isEqualTo(-32602);
        assertThat(late.at("/error/message").asText()).contains("gone");
    }

    @Test
    void theCallTimeoutIsSuspendedWhileTheCallWaitsForItsClient() throws Exception {
        start("3s");
        String arguments = rounds("[" + ELICIT + "]", "[" + ROOTS + "]");
        JsonNode answer = first(arguments, ALL_CAPABILITIES);
        int rounds = 0;
        while (answer.at("/result/resultType").asText().equals("input_required")) {
            assertThat(++rounds).isLessThanOrEqualTo(2);
            Thread.sleep(2000); // two waits for the client together pass the call's 3 s timeout
            answer = retry(arguments, answersTo(answer.at("/result/inputRequests")), answer.at("/result/requestState").asText());
        }
        assertThat(answer.at("/result/resultType").asText()).as("%s", answer).isEqualTo("complete");
        assertThat(rounds).isEqualTo(2);
    }
}
