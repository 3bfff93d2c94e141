package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.metaruntime.gateway.NodeClient.call;
import static org.metaruntime.gateway.NodeClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * Several TypeScript SDK clients on one gateway over HTTP: each has its own session on the pods' one session, a
 * pod's sampling request goes to the client whose call made it, and a client killed mid-call gets that call
 * cancelled at the pod while the others keep being served.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class HttpClientsIT {

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private HttpGateway gateway() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture");
        // Long enough that no call here ends by its timeout (a timed-out call is cancelled at the pod too).
        Path manifest = manifests.resolve("fixture.yaml");
        NodeClient.callTimeout(manifest, "120s");
        return HttpGateway.start(List.of("--manifests", manifests.toString()));
    }

    private static ObjectNode samples(String prefix, int count) {
        ObjectNode parallel = step("parallel").put("count", count).put("expect", "sampled: " + prefix + "$i");
        parallel.set("call", call("fixture__sample", "{\"prompt\": \"" + prefix + "$i\"}"));
        return parallel;
    }

    private long podCount() throws Exception {
        try (Stream<Path> files = Files.list(dir.resolve("pids"))) {
            return files.count();
        }
    }

    private static ObjectNode script(HttpGateway gateway, String transport, ObjectNode... steps) {
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", transport)
                .put("url", transport.equals("sse") ? gateway.base() + "/sse" : gateway.url());
        script.putArray("steps").addAll(List.of(steps));
        return script;
    }

    @Test
    void twoClientsAtOnceEachGetsTheSamplingOfItsOwnCalls() throws Exception {
        try (HttpGateway gateway = gateway();
             NodeProcess a = NodeProcess.start(script(gateway, "http", samples("A", 24), call("meta__status", "{}")));
             NodeProcess b = NodeProcess.start(script(gateway, "sse", samples("B", 24)))) {
            JsonNode first = a.result();
            JsonNode second = b.result();
            for (JsonNode session : List.of(first, second)) {
                JsonNode parallel = session.at("/steps/0/ok");
                assertThat(parallel.get("ok").asInt()).as(session.toString()).isEqualTo(24);
                assertThat(parallel.get("mismatched").asInt()).as(session.toString()).isZero();
                assertThat(session.get("sampled").asInt()).as("sampling requests this client answered").isEqualTo(24);
            }
            assertThat(podCount()).as("one pod process for both clients").isEqualTo(1);
            gateway.stopCleanly();
        }
    }

    @Test
    void aClientKilledMidCallHasItsCallCancelledAtThePodAndTheOthersKeepServing() throws Exception {
        try (HttpGateway gateway = gateway()) {
            int cancelled = 0;
            for (String transport : List.of("http", "sse")) {
                ObjectNode slow = call("fixture__slow", "{\"seconds\": 30, \"steps\": 300}").put("progress", true);
                ObjectNode script = script(gateway, transport, slow).put("announce", true);
                try (NodeProcess doomed = NodeProcess.start(script);
                     NodeProcess bystander = NodeProcess.start(script(gateway, "http",
                             call("fixture__slow", "{\"seconds\": 1, \"steps\": 10}"), call("fixture__echo", "{\"text\": \"still\"}")))) {
                    doomed.awaitLine("{\"progress\":2}");
                    doomed.kill();
                    int expected = ++cancelled;
                    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(NodeClient.recorded(dir)
                            .stream().filter(l -> l.startsWith("cancelled "))).as(transport).hasSize(expected));
                    JsonNode other = bystander.result();
                    assertThat(other.at("/steps/0/ok/content/0/text").asText()).isEqualTo("done after 10 steps");
                    assertThat(other.at("/steps/1/ok/content/0/text").asText()).isEqualTo("still");
                }
            }
            assertThat(gateway.stderr()).contains("broke");
            gateway.stopCleanly();
        }
    }
}
