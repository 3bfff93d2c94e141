package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SurfaceTest {

    /** The requests each pod got, by pod name and cursor ("" for the first page), answered by the test. */
    private final Map<String, CompletableFuture<JsonNode>> asked = new ConcurrentHashMap<>();

    private final class TestPod implements PodBackend.Pod {
        private final String name;

        TestPod(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean running() {
            return true;
        }

        @Override
        public CompletableFuture<Void> start() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public List<ObjectNode> liveTools() {
            return List.of();
        }

        @Override
        public InFlight<JsonNode> call(String tool, JsonNode arguments, PodBackend.CallContext context) {
            throw new UnsupportedOperationException("no tools in this test");
        }

        @Override
        public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout) {
            CompletableFuture<JsonNode> answer = new CompletableFuture<>();
            asked.put(name + "@" + params.path("cursor").asText(""), answer);
            return answer;
        }

        @Override
        public PodBackend.PodState state() {
            return new PodBackend.PodState("Running", OptionalLong.empty(), 0, null, "");
        }
    }

    private final PodBackend backend = new PodBackend() {
        @Override
        public PodBackend.Pod pod(String name) {
            return new TestPod(name);
        }

        @Override
        public void listen(PodListener listener) {
        }

        @Override
        public void servePodCalls(PodCallHandler handler) {
        }

        @Override
        public void close() {
        }
    };

    private static JsonNode page(String uri, String nextCursor) {
        ObjectNode page = JsonRpc.NODES.objectNode();
        page.putArray("resources").addObject().put("uri", uri).put("name", uri);
        if (nextCursor != null) {
            page.put("nextCursor", nextCursor);
        }
        return page;
    }

    @Test
    void aListAsksEveryPodAtOnceWithoutBlockingFollowsEachOnesPagesAndKeepsWhatAFailingPodGaveBefore() throws Exception {
        Catalog catalog = FakePods.catalog(FakePods.pod("a", Set.of(), List.of()), FakePods.pod("b", Set.of(), List.of()),
                FakePods.pod("c", Set.of(), List.of()));
        Surface surface = new Surface(() -> catalog, backend, JsonRpc.NODES::objectNode);
        CompletableFuture<JsonNode> listed = surface.listResources();
        assertThat(listed).as("the list does not wait on the caller's thread").isNotDone();

        // every pod is asked before any has answered
        await().atMost(10, TimeUnit.SECONDS).until(() -> asked.keySet().containsAll(Set.of("a@", "b@", "c@")));
        asked.get("c@").complete(page("c://1", null));
        asked.get("b@").complete(page("b://1", "next"));
        await().atMost(10, TimeUnit.SECONDS).until(() -> asked.containsKey("b@next"));
        asked.get("b@next").complete(page("b://2", null));
        assertThat(listed).isNotDone();
        asked.get("a@").complete(page("a://1", "more"));
        await().atMost(10, TimeUnit.SECONDS).until(() -> asked.containsKey("a@more"));
        asked.get("a@more").completeExceptionally(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.UNAVAILABLE,
                "the pod exited", java.util.OptionalInt.of(1), ""));

        assertThat(listed.get(10, TimeUnit.SECONDS).path("resources").findValuesAsText("uri"))
                .containsExactly("meta://status", "a://1", "b://1", "b://2", "c://1");
    }
}
