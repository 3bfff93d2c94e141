package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.ProcessLeaks;

/**
 * One of three replicas killed (SIGKILL) while 16 clients of both eras (8 TypeScript SDK v1 sessions, 8 SDK v2
 * clients of 2026-07-28) call through HAProxy: every call is answered with its own text or fails with a clear
 * error (at most the one call each client had in flight), none is answered with another call's text, every legacy
 * session goes on on the other replicas, and no pod process of the killed replica is left.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ScaleOutFailoverIT {

    private static final int CLIENTS_PER_ERA = 8;
    private static final int BEFORE = 20;
    private static final int AFTER = 5;
    private static final Pattern CALLS = Pattern.compile("(?m)^meta_gateway_tool_calls_seconds_count(?:\\{[^}]*\\})? ([0-9.eE+-]+)$");

    @TempDir
    Path dir;

    private static ObjectNode script(Topology topology, String client, Path killed) {
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.url());
        ArrayNode steps = script.putArray("steps");
        for (int i = 0; i < BEFORE + AFTER; i++) {
            if (i == BEFORE) {
                steps.add(NodeClient.step("waitLines").put("path", killed.toString()).put("prefix", "killed")
                        .put("count", 1).put("timeoutMs", 90_000));
            }
            steps.add(NodeClient.call("fixture__echo", "{\"text\":\"" + client + " " + i + " ✓\"}").put("timeoutMs", 30_000));
        }
        return script;
    }

    private static double calls(Topology topology, int replica) throws Exception {
        Matcher m = CALLS.matcher(topology.get(replica, "/metrics").body());
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return sum;
    }

    @Test
    void aReplicaKilledUnderLoadFailsOnlyItsCallsInFlight() throws Exception {
        Path killed = dir.resolve("killed.txt");
        try (Topology topology = Topology.start(dir, NodeClient.manifests(dir, dir.resolve("pids"), "fixture"), 3, true, List.of())) {
            List<String> names = new ArrayList<>();
            List<NodeProcess> clients = new ArrayList<>();
            try {
                for (int c = 0; c < CLIENTS_PER_ERA; c++) {
                    names.add("legacy-" + c);
                    clients.add(NodeProcess.start(script(topology, "legacy-" + c, killed)));
                    names.add("modern-" + c);
                    clients.add(NodeProcess.startModern(script(topology, "modern-" + c, killed)));
                }
                await("r2 serving the load").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                        .until(() -> calls(topology, 1) >= 20);
                List<ProcessHandle> pods = topology.kill(1);
                assertThat(pods).as("r2's pods").isNotEmpty();
                pods.forEach(ProcessLeaks::assertDead);
                Files.writeString(killed, "killed\n");

                int failed = 0;
                for (int c = 0; c < clients.size(); c++) {
                    JsonNode result = clients.get(c).result();
                    JsonNode steps = result.path("steps");
                    int clientFailures = 0;
                    for (int i = 0, call = 0; i < steps.size(); i++) {
                        if (i == BEFORE) {
                            assertThat(steps.get(i).has("ok")).as("%s waited for the kill: %s", names.get(c), steps.get(i)).isTrue();
                            continue;
                        }
                        JsonNode step = steps.get(i);
                        String expected = names.get(c) + " " + call + " ✓";
                        if (step.has("ok") && !step.at("/ok/isError").asBoolean()) {
                            assertThat(step.at("/ok/content/0/text").asText()).as("%s call %s", names.get(c), call).isEqualTo(expected);
                        } else {
                            assertThat(call).as("%s: a call after the kill failed: %s\n%s", names.get(c), step, topology.stderr())
                                    .isLessThan(BEFORE);
                            assertThat(step.at("/error/message").asText()).as("a clear error: %s", step).isNotBlank();
                            clientFailures++;
                        }
                        call++;
                    }
                    assertThat(clientFailures).as("%s failed more than its call in flight at the kill", names.get(c)).isLessThanOrEqualTo(1);
                    failed += clientFailures;
                }
                assertThat(failed).as("calls in flight on r2 at the kill").isLessThanOrEqualTo(clients.size());
            } finally {
                for (NodeProcess client : clients) {
                    client.close();
                }
            }
        }
    }
}
