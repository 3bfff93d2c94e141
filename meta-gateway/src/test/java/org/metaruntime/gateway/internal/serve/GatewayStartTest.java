package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/**
 * The gateway's start does not wait for its pre-warmed pods: {@link GatewayServer#start()} returns and clients are
 * answered ({@code initialize}, {@code tools/list} of declared tools, the status) while a pre-warmed pod's runtime is
 * still being made, which here waits until the test releases it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GatewayStartTest {

    private final BlockingQueue<JsonNode> answers = new LinkedBlockingQueue<>();

    @Test
    void clientsAreAnsweredWhileAPreWarmedPodsRuntimeIsBeingMade() throws Exception {
        PodManifest warm = new PodManifest("warm", null, Path.of("warm.yaml"), 1, List.of("true"), null, Path.of("."),
                Map.of(), Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1), true,
                PodManifest.HealthCheck.DISABLED, List.of(FakePods.tool("work", null)), Map.of(), PodManifest.Protocol.MCP,
                null, Set.of(), null, Set.of(), null);
        Catalog catalog = FakePods.catalog(warm);
        FakePods fakes = new FakePods();
        CompletableFuture<Void> release = new CompletableFuture<>();
        PodSet pods = new PodSet(catalog.pods(), (manifest, threads, withheld) -> {
            release.join();
            return fakes.backend(manifest);
        });
        GatewayServer server = new GatewayServer(catalog, pods, 4, CallSettings.defaults());
        try {
            server.start();
            ClientSession session = server.openSession(answers::add);
            JsonNode initialized = request(server, session, 1, "initialize", JsonRpc.NODES.objectNode()
                    .put("protocolVersion", "2025-11-25").<ObjectNode>set("capabilities", JsonRpc.NODES.objectNode()));
            assertThat(initialized.at("/result/protocolVersion").asText()).as(initialized.toString()).isEqualTo("2025-11-25");
            JsonNode listed = request(server, session, 2, "tools/list", JsonRpc.NODES.objectNode());
            assertThat(listed.at("/result/tools").findValuesAsText("name")).contains("warm__work");
            assertThat(pods.pod("warm").state().state()).isEqualTo("Starting");
            assertThat(fakes.starts).as("the pod is not started before its runtime is made").isEmpty();

            release.complete(null);
            assertThat(pods.pod("warm").start()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(pods.pod("warm").running()).isTrue();
        } finally {
            release.complete(null);
            server.close();
        }
    }

    private JsonNode request(GatewayServer server, ClientSession session, int id, String method, ObjectNode params)
            throws InterruptedException {
        ObjectNode message = JsonRpc.NODES.objectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        message.set("params", params);
        server.dispatcher().onMessage(session, message);
        while (true) {
            JsonNode answer = answers.poll(20, TimeUnit.SECONDS);
            assertThat(answer).as("an answer to " + method).isNotNull();
            if (answer.path("id").asInt(-1) == id) {
                return answer;
            }
        }
    }
}
