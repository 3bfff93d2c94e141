package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.PostgresServer;

/**
 * Three gateway replicas sharing one PostgreSQL database behind a real HAProxy in round robin without stickiness,
 * driven by real clients of both eras: each replica is registered and ready; modern-era (2026-07-28) requests are
 * served by any replica, and {@code tools/list} is the same answer (same tools, same order) on every replica.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ScaleOutIT {

    @TempDir
    static Path dir;

    private static Topology topology;

    @BeforeAll
    static void start() throws Exception {
        topology = Topology.start(dir, NodeClient.manifests(dir, dir.resolve("pids"), "fixture"), 3, true, List.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (topology != null) {
            topology.close();
        }
    }

    @Test
    void everyReplicaIsRegisteredWithItsAdvertisedUrlAndReady() throws Exception {
        Map<String, String> registered = new TreeMap<>();
        try (Connection c = PostgresServer.dataSource(topology.database()).getConnection();
             Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT id, url FROM gateway_replica")) {
            while (rows.next()) {
                registered.put(rows.getString(2), rows.getString(1));
            }
        }
        assertThat(registered.keySet()).containsExactlyInAnyOrderElementsOf(
                topology.replicas().stream().map(HttpGateway::base).toList());
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> health = topology.get(i, "/healthz");
            JsonNode body = NodeClient.JSON.readTree(health.body());
            assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
            assertThat(body.at("/replica/registered").asBoolean()).isTrue();
            assertThat(body.at("/replica/database").asText()).isEqualTo("reachable");
            assertThat(registered.get(topology.replica(i).base())).isEqualTo(body.at("/replica/id").asText());
        }
    }

    @Test
    void toolsListIsTheSameAnswerFromEveryReplica() throws Exception {
        Set<String> servedBy = new TreeSet<>();
        List<JsonNode> lists = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Topology.Answer answer = topology.modern(topology.url(), "tools/list", null, NodeClient.JSON.createObjectNode());
            assertThat(answer.status()).as("%s\n%s", answer, topology.stderr()).isEqualTo(200);
            servedBy.add(answer.servedBy());
            lists.add(answer.body().at("/result/tools"));
        }
        assertThat(servedBy).as("round robin without stickiness").containsExactly("r1", "r2", "r3");
        assertThat(lists.get(0).size()).isGreaterThan(1);
        assertThat(lists).as("tools/list of r1, r2, r3, r1, r2, r3").allSatisfy(tools -> assertThat(tools).isEqualTo(lists.get(0)));
        for (HttpGateway replica : topology.replicas()) {
            Topology.Answer direct = topology.modern(replica.url(), "tools/list", null, NodeClient.JSON.createObjectNode());
            assertThat(direct.body().at("/result/tools")).as("tools/list of %s", replica.url()).isEqualTo(lists.get(0));
        }
    }

    @Test
    void theModernSdkClientIsServedByEveryReplicaThroughTheBalancer() throws Exception {
        List<ObjectNode> steps = new ArrayList<>(List.of(NodeClient.step("listTools")));
        for (int i = 0; i < 6; i++) {
            steps.add(NodeClient.call("fixture__echo", "{\"text\":\"modern " + i + " ✓\"}"));
        }
        steps.add(NodeClient.step("listTools"));
        ObjectNode script = NodeClient.JSON.createObjectNode().put("transport", "http").put("url", topology.url());
        script.putArray("steps").addAll(steps);
        JsonNode session = NodeClient.runModern(script);

        assertThat(session.path("era").asText()).as(session.toString()).isEqualTo("modern");
        assertThat(session.path("version").asText()).isEqualTo("2026-07-28");
        assertThat(session.path("sessionId").isNull()).as("no session on a modern connection").isTrue();
        JsonNode results = session.path("steps");
        for (int i = 0; i < 6; i++) {
            JsonNode call = results.get(i + 1);
            assertThat(call.at("/ok/content/0/text").asText()).as("call %s: %s\n%s", i, call, topology.stderr())
                    .isEqualTo("modern " + i + " ✓");
        }
        assertThat(results.get(7).at("/ok/tools")).as("tools/list before and after").isEqualTo(results.get(0).at("/ok/tools"));
        Topology.Answer raw = topology.modern(topology.url(), "tools/list", null, NodeClient.JSON.createObjectNode());
        assertThat(results.get(0).at("/ok/tools").size()).isEqualTo(raw.body().at("/result/tools").size());
    }

    @Test
    void aModernToolsCallReachesTheSamePodToolOnEveryReplica() throws Exception {
        Set<String> servedBy = new TreeSet<>();
        for (int i = 0; i < 6; i++) {
            ObjectNode params = NodeClient.JSON.createObjectNode().put("name", "fixture__echo");
            params.putObject("arguments").put("text", "raw " + i);
            Topology.Answer answer = topology.modern(topology.url(), "tools/call", "fixture__echo", params);
            assertThat(answer.body().at("/result/content/0/text").asText()).as("%s\n%s", answer, topology.stderr())
                    .isEqualTo("raw " + i);
            assertThat(answer.body().at("/result/resultType").asText()).isEqualTo("complete");
            servedBy.add(answer.servedBy());
        }
        assertThat(servedBy).containsExactly("r1", "r2", "r3");
    }
}
