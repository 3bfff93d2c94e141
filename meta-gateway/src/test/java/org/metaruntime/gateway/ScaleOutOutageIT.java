package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.PostgresServer;
import org.metaruntime.testing.TcpForwarder;

/**
 * Three replicas whose shared PostgreSQL database goes away (their connections run through a TCP forwarder that is
 * closed) and comes back: every replica keeps serving 2026-07-28 requests and the legacy sessions it holds; a
 * session only another replica holds, and a new session, fail at once with -32603 naming the database rather than
 * hang; once the database is back the replica that did not hold the session serves it.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ScaleOutOutageIT {

    private static final Pattern HOST_PORT = Pattern.compile("jdbc:postgresql://([^/:?]+)(?::(\\d+))?/");

    @TempDir
    Path dir;

    private static ObjectNode echo(String text) {
        ObjectNode params = NodeClient.JSON.createObjectNode().put("name", "fixture__echo");
        params.putObject("arguments").put("text", text);
        return params;
    }

    /** Opens a legacy session with the SDK client on {@code url} (it ends without DELETE: the session stays). */
    private static String open(String url) throws Exception {
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", url);
        script.putArray("steps").add(NodeClient.call("fixture__echo", "{\"text\":\"open\"}"));
        JsonNode session = NodeClient.run(script);
        assertThat(session.at("/steps/0/ok/content/0/text").asText()).as(session.toString()).isEqualTo("open");
        return session.path("sessionId").asText();
    }

    private static void served(Topology topology, int replica, String session, String text) throws Exception {
        Topology.Answer answer = topology.legacy(topology.replica(replica).url(), session, "tools/call", echo(text));
        assertThat(answer.body().at("/result/content/0/text").asText()).as("r%s: %s\n%s", replica + 1, answer, topology.stderr())
                .isEqualTo(text);
    }

    @Test
    void withoutTheDatabaseEveryReplicaServesWhatItHoldsAndFailsTheRestAtOnce() throws Exception {
        Matcher m = HOST_PORT.matcher(PostgresServer.get().adminUrl());
        assertThat(m.find()).isTrue();
        String host = m.group(1);
        int port = m.group(2) == null ? 5432 : Integer.parseInt(m.group(2));
        int via = Haproxy.freePort();
        TcpForwarder forwarder = TcpForwarder.start(via, host, port);
        try (Topology topology = Topology.start(dir, NodeClient.manifests(dir, dir.resolve("pids"), "fixture"), 3, true, List.of(),
                url -> url.replaceFirst("//[^/]+/", "//127.0.0.1:" + via + "/"))) {
            String shared = open(topology.replica(0).url());
            served(topology, 1, shared, "shared on r2");
            String onlyR1 = open(topology.replica(0).url());

            forwarder.close();
            await("r2 sees the database gone").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> topology.get(1, "/healthz").body().contains("\"database\":\"unreachable\""));
            assertThat(topology.get(1, "/healthz").statusCode()).as("ready through the outage").isEqualTo(200);

            for (int r = 0; r < 3; r++) {
                Topology.Answer modern = topology.modern(topology.replica(r).url(), "tools/call", "fixture__echo", echo("modern r" + r));
                assertThat(modern.body().at("/result/content/0/text").asText()).as("%s", modern).isEqualTo("modern r" + r);
            }
            served(topology, 0, shared, "held by r1");
            served(topology, 1, shared, "held by r2");
            served(topology, 0, onlyR1, "only r1 holds it");
            Topology.Answer elsewhere = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> topology.legacy(topology.replica(1).url(), onlyR1, "tools/call", echo("r2 must read it")));
            assertThat(elsewhere.body().at("/error/code").asInt()).as("%s", elsewhere).isEqualTo(-32603);
            assertThat(elsewhere.body().at("/error/message").asText()).contains("database").contains("cannot be reached");
            ObjectNode newSession = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.replica(2).url());
            newSession.putArray("steps");
            JsonNode refused = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> NodeClient.runRaw(newSession));
            assertThat(refused.path("connectError").toString()).as("%s", refused).contains("cannot be reached");

            forwarder = TcpForwarder.start(via, host, port);
            await("r2 reaches the database again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> topology.get(1, "/healthz").body().contains("\"database\":\"reachable\""));
            // After a failure a replica tries the database again at most every 2 s: within that, the session waits.
            await("r2 reads it").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> served(topology, 1, onlyR1, "r2 reads it now"));
            open(topology.url());
        } finally {
            forwarder.close();
        }
    }
}
