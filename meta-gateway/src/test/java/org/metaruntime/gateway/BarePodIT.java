package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.gateway.NodeClient.call;
import static org.metaruntime.gateway.NodeClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod that speaks bare JSON-RPC 2.0 ({@code protocol: jsonrpc}: it answers {@code tools/call} only) served through
 * {@code bin/meta-gateway} to the MCP TypeScript SDK client, next to an MCP pod.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BarePodIT {

    @TempDir
    Path dir;

    @Test
    void aBarePodIsServedFromItsDeclaredToolsAndItsAnswersBecomeCallToolResults() throws Exception {
        Path pids = dir.resolve("pids");
        Path manifests = NodeClient.manifests(dir, pids, "bare", "other");
        JsonNode session = NodeClient.session(List.of("--manifests", manifests.toString()), List.of(
                step("listTools"),
                call("bare__add", "{\"a\": 2, \"b\": 40}"),
                call("bare__shout", "{\"text\": \"日本語 🎉\"}"),
                call("bare__fail", "{\"why\": \"on purpose\"}"),
                call("other__echo", "{\"text\": \"mcp still\"}"),
                step("listResources"),
                call("bare__add", "{\"a\": 0.5, \"b\": 1}")));
        NodeClient.assertAllGone(session, pids);
        JsonNode steps = session.get("steps");

        assertThat(steps.at("/0/ok/tools").findValuesAsText("name"))
                .as(steps.get(0).toString()).contains("bare__add", "bare__shout", "bare__fail", "other__echo");

        JsonNode added = steps.at("/1/ok");
        assertThat(added.isMissingNode()).as(steps.get(1).toString()).isFalse();
        assertThat(added.at("/content/0/type").asText()).isEqualTo("text");
        assertThat(NodeClient.JSON.readTree(added.at("/content/0/text").asText()))
                .isEqualTo(NodeClient.JSON.readTree("{\"sum\": 42}"));
        assertThat(added.get("structuredContent")).isEqualTo(NodeClient.JSON.readTree("{\"sum\": 42}"));
        assertThat(added.at("/content").size()).isEqualTo(1);

        JsonNode shouted = steps.at("/2/ok");
        assertThat(shouted.isMissingNode()).as(steps.get(2).toString()).isFalse();
        assertThat(shouted.at("/content").size()).isEqualTo(1);
        assertThat(shouted.at("/content/0/text").asText()).isEqualTo("日本語 🎉!");
        assertThat(shouted.at("/structuredContent/shouted").asText()).isEqualTo("日本語 🎉!");
        assertThat(shouted.path("isError").asBoolean(true)).isFalse();

        JsonNode failed = steps.at("/3/error");
        assertThat(failed.isMissingNode()).as(steps.get(3).toString()).isFalse();
        assertThat(failed.get("message").asText()).contains("pod bare tool fail").contains("fail: on purpose");

        assertThat(steps.at("/4/ok/structuredContent/echo").asText()).as(steps.get(4).toString()).isEqualTo("mcp still");
        assertThat(steps.at("/5/ok/resources").isArray()).as(steps.get(5).toString()).isTrue();
        assertThat(steps.at("/6/ok/structuredContent/sum").asDouble()).as(steps.get(6).toString()).isEqualTo(1.5);

        List<JsonNode> received = Files.readAllLines(dir.resolve("record.txt")).stream().map(line -> {
            try {
                return NodeClient.JSON.readTree(line);
            } catch (java.io.IOException e) {
                throw new AssertionError(line, e);
            }
        }).toList();
        assertThat(received).as("the bare pod got the four calls and nothing else (no initialize, no notification)")
                .hasSize(4)
                .allSatisfy(message -> {
                    assertThat(message.get("method").asText()).isEqualTo("tools/call");
                    assertThat(message.has("id")).isTrue();
                });
        assertThat(received.get(1).at("/params/arguments/text").asText()).isEqualTo("日本語 🎉");
        try (var files = Files.list(pids)) {
            assertThat(files.count()).as("the bare pod spawned once, the MCP pod once").isEqualTo(2);
        }
    }
}
