package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A pod that adds a tool and sends {@code notifications/tools/list_changed}: the gateway tells its clients once it
 * serves the changed list, so a client that lists the tools when told finds the new one. Embedded gateway, the MCP
 * fixture pod.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LiveToolChangesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final EmbeddedGateway gateway = new EmbeddedGateway();

    @Test
    void clientsAreToldOfAPodsNewToolOnceItIsServed() throws Exception {
        gateway.fixturePod("live", "");
        PipedGateway client = gateway.piped();
        JsonNode before = client.request("tools/list", "{}").at("/result/tools");
        assertThat(before.findValuesAsText("name")).as(before.toString()).contains("live__grow").doesNotContain("live__extra1");

        // the served list does not change again until the pod's does: the next list_changed is the pod's
        client.send("{\"jsonrpc\":\"2.0\",\"id\":100,\"method\":\"tools/call\",\"params\":{\"name\":\"live__grow\",\"arguments\":{}}}");
        boolean answered = false;
        boolean told = false;
        while (!answered || !told) {
            JsonNode message = JSON.readTree(client.readLine());
            answered |= message.path("id").asInt() == 100 && !message.has("method");
            told |= "notifications/tools/list_changed".equals(message.path("method").asText());
        }
        JsonNode after = client.request("tools/list", "{}").at("/result/tools");
        assertThat(after.findValuesAsText("name")).as(after.toString()).contains("live__grow", "live__extra1");
    }
}
