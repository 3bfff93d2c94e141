package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metaruntime.testing.LeakCheck;

/**
 * JSON-RPC batches over stdio, with {@code bin/meta-gateway} as a process: a session of MCP 2025-03-26 (the one
 * revision with batches) gets one array of answers per batch; a session of any other revision gets one -32600
 * error with id null, and the session goes on.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StdioBatchIT {

    @TempDir
    Path dir;

    private StdioGateway gateway;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFilesIn(() -> dir.resolve("pids"), "");

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
    }

    private void start() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        gateway = StdioGateway.start("--manifests", manifests.toString());
    }

    @Test
    void aBatchOfRevision20250326IsAnsweredWithOneArray() throws Exception {
        start();
        gateway.initialize("2025-03-26");
        gateway.send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"fixture__echo\",\"arguments\":{\"text\":\"batched\"}}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"three\",\"method\":\"tools/list\"},"
                + "42]");
        JsonNode answers = gateway.nextAnswer();
        assertThat(answers.isArray()).as("one array of answers: %s", answers).isTrue();
        assertThat(answers).hasSize(4);
        List<String> ids = new ArrayList<>();
        answers.forEach(a -> ids.add(a.get("id").isNull() ? "null" : a.get("id").asText()));
        assertThat(ids).containsExactlyInAnyOrder("1", "2", "three", "null");
        for (JsonNode answer : answers) {
            switch (answer.get("id").asText("null")) {
                case "1" -> assertThat(answer.at("/result/content/0/text").asText()).contains("batched");
                case "2" -> assertThat(answer.get("result").isObject()).isTrue();
                case "three" -> assertThat(answer.at("/result/tools").toString()).contains("fixture__echo");
                default -> assertThat(answer.at("/error/code").asInt()).isEqualTo(-32600);
            }
        }

        // Nothing to answer: no line. The next answer is the ping's.
        gateway.send("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]");
        assertThat(gateway.exchange("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}").get("id").asInt()).isEqualTo(7);

        JsonNode empty = gateway.exchange("[]");
        assertThat(empty.isObject()).isTrue();
        assertThat(empty.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(empty.get("id").isNull()).isTrue();

        JsonNode withInitialize = gateway.exchange("[{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"initialize\",\"params\":{}}]");
        assertThat(withInitialize).hasSize(1);
        assertThat(withInitialize.get(0).get("id").asInt()).isEqualTo(8);
        assertThat(withInitialize.get(0).at("/error/code").asInt()).isEqualTo(-32600);

        gateway.closeStdin();
        assertThat(gateway.awaitExit()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-11-25", "2025-06-18", "2024-11-05"})
    void aBatchOfARevisionWithoutBatchesGetsOneInvalidRequestError(String revision) throws Exception {
        start();
        gateway.initialize(revision);
        JsonNode answer = gateway.exchange("[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]");
        assertThat(answer.isObject()).as("%s", answer).isTrue();
        assertThat(answer.get("id").isNull()).isTrue();
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(answer.at("/error/message").asText()).contains(revision);
        assertThat(gateway.exchange("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}").get("id").asInt()).isEqualTo(4);
        gateway.closeStdin();
        assertThat(gateway.awaitExit()).isZero();
    }
}
