package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * {@code includeTools} / {@code excludeTools} of a pod that lists its tools live: a tool left out is neither listed
 * nor callable, by a client or by another pod. Embedded gateway, the MCP fixture pod.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LiveToolFilterTest {

    @TempDir
    Path dir;

    private PipedGateway client;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void onlyTheIncludedToolsThatAreNotExcludedAreServed() throws Exception {
        Repo.tool("python3");
        Path folder = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(folder.resolve("live.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: live }
                spec:
                  command: ["python3", "fixture_pod.py"]
                  workdir: %s
                  includeTools: [echo, call, "s*"]
                  excludeTools: ["slee?"]
                """.formatted(NodeClient.PODS));
        client = PipedGateway.serve(MetaGateway.builder().manifests(folder).build());
        client.initialize();

        JsonNode listed = client.request("tools/list", "{}").at("/result/tools");
        assertThat(listed.findValuesAsText("name")).as(listed.toString())
                .containsExactlyInAnyOrder("meta__status", "live__echo", "live__call", "live__slow", "live__sample");
        assertThat(client.call("live__echo", "{\"text\": \"served\"}").at("/result/content/0/text").asText()).isEqualTo("served");

        JsonNode crash = client.call("live__crash", "{\"code\": 3}");
        assertThat(crash.at("/error/code").asInt()).as(crash.toString()).isEqualTo(-32602);
        JsonNode sleep = client.call("live__sleep", "{\"seconds\": 0}");
        assertThat(sleep.at("/error/code").asInt()).as(sleep.toString()).isEqualTo(-32602);

        JsonNode nested = client.call("live__call", "{\"tool\": \"live.crash\", \"args\": {\"code\": 3}}");
        assertThat(nested.at("/result/structuredContent/responses/0/error/code").asInt()).as(nested.toString()).isEqualTo(-32602);

        JsonNode status = client.call("meta__status", "{}").at("/result/structuredContent/pods/live");
        assertThat(status.get("restarts").asInt()).as("nothing crashed: %s", status).isZero();
        assertThat(status.get("tools").findValuesAsText("name")).containsExactlyInAnyOrder("echo", "call", "slow", "sample");
    }
}
