package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.gateway.NodeClient.call;
import static org.metaruntime.gateway.NodeClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pods of the "Writing a pod" examples, in Python and Node.js, with the manifest format's own example
 * ({@code src/test/resources/seed/manifests}, files kept exactly as published): programs that answer every request
 * line with {@code {"status": "ok"}} and declare no protocol. They are served through {@code bin/meta-gateway} to
 * the MCP TypeScript SDK client as bare JSON-RPC pods: found so once each, never sent a notification (the Python
 * one dies on a line without an id), never restarted.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SeedPodsIT {

    static final Path SEED_MANIFESTS = Path.of("src", "test", "resources", "seed", "manifests").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void thePublishedPodsRunWithThePublishedManifestAsWritten() throws Exception {
        JsonNode session = NodeClient.session(List.of("--manifests", SEED_MANIFESTS.toString()), List.of(
                step("listTools"),
                call("my-tools__my_tool", "{\"input\": \"日本語 🎉\"}"),
                call("node-tools__my_tool", "{\"input\": \"hello\"}"),
                call("my-tools__my_tool", "{\"input\": \"again\"}"),
                call("meta__status", "{}")));
        NodeClient.assertAllGone(session, dir.resolve("none"));
        JsonNode steps = session.get("steps");

        assertThat(steps.at("/0/ok/tools").findValuesAsText("name")).as(steps.get(0).toString())
                .contains("my-tools__my_tool", "node-tools__my_tool");
        for (int i = 1; i <= 3; i++) {
            JsonNode result = steps.get(i).get("ok");
            assertThat(result).as(session.toString()).isNotNull();
            assertThat(NodeClient.JSON.readTree(result.at("/content/0/text").asText()))
                    .isEqualTo(NodeClient.JSON.readTree("{\"status\": \"ok\"}"));
            assertThat(result.get("structuredContent")).isEqualTo(NodeClient.JSON.readTree("{\"status\": \"ok\"}"));
            assertThat(result.path("isError").asBoolean(false)).isFalse();
        }

        JsonNode pods = steps.at("/4/ok/structuredContent/pods");
        for (String pod : List.of("my-tools", "node-tools")) {
            JsonNode status = pods.get(pod);
            assertThat(status).as(steps.get(4).toString()).isNotNull();
            assertThat(status.get("state").asText()).as(status.toString()).isEqualTo("Healthy");
            assertThat(status.get("restarts").asInt()).as(status.toString()).isZero();
            assertThat(status.get("lastError").isNull()).as(status.toString()).isTrue();
            assertThat(status.get("stderrTail").asText()).as("nothing on stderr (no traceback)").isEmpty();
        }

        String stderr = session.get("stderr").asText();
        for (String pod : List.of("my-tools", "node-tools")) {
            Matcher found = Pattern.compile("pod " + pod + " does not answer initialize as an MCP server").matcher(stderr);
            int times = 0;
            while (found.find()) {
                times++;
            }
            assertThat(times).as("the detection of %s is logged once: %s", pod, stderr).isEqualTo(1);
        }
    }
}
