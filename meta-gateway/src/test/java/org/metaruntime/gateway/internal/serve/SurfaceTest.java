package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SurfaceTest {

    /** The requests each pod got, by pod name and cursor ("" for the first page), answered by the test. */
    private final Map<String, CompletableFuture<JsonNode>> asked = new ConcurrentHashMap<>();

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
        FakePods pods = new FakePods();
        pods.answerRequests((pod, method, params) -> asked.computeIfAbsent(pod + "@" + params.path("cursor").asText(""),
                request -> new CompletableFuture<>()));
        PodBackend backend = pods.backend(catalog);
        catalog.pods().forEach(pod -> backend.pod(pod.name()).start()); // every pod running
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
