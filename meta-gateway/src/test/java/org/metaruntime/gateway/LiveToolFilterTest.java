package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code includeTools} / {@code excludeTools} of a pod that lists its tools live: a tool left out is neither listed
 * nor callable, by a client or by another pod. Embedded gateway, the MCP fixture pod.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LiveToolFilterTest {

    @RegisterExtension
    final EmbeddedGateway gateway = new EmbeddedGateway();

    @Test
    void onlyTheIncludedToolsThatAreNotExcludedAreServed() throws Exception {
        gateway.fixturePod("live", """
                includeTools: [echo, call, "s*"]
                excludeTools: ["slee?"]
                """);
        PipedGateway client = gateway.piped();

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
