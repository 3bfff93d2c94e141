package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.internal.Failures;

/**
 * A pre-warm ({@link PodSet}'s {@code start()}), a first call and a first request (resources, prompts, completion)
 * never make the pod's runtime on the caller's thread: it is made on the pod threads, once for all of them, a stop
 * before it is made fails them with -32002 and makes none, and a runtime that cannot be made fails the pre-warm as a
 * failed start that the status report shows. Each runtime here is made by a runner that waits until the test
 * releases it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PodSetTest {

    private static final Duration T = Duration.ofSeconds(20);

    private final FakePods fakes = new FakePods();
    /** The thread each pod's runtime was made on, by pod. */
    private final Map<String, String> madeOn = new ConcurrentHashMap<>();
    /** Completed by the test to let the runner make the pod's runtime. */
    private final Map<String, CompletableFuture<Void>> release = new ConcurrentHashMap<>();
    private final List<String> entered = new CopyOnWriteArrayList<>();

    private PodSet podSet(String... names) {
        List<PodManifest> pods = java.util.Arrays.stream(names).map(n -> FakePods.pod(n, Set.of(), List.of())).toList();
        return new PodSet(pods, (manifest, threads, withheld) -> {
            entered.add(manifest.name());
            madeOn.put(manifest.name(), Thread.currentThread().getName());
            releaseOf(manifest.name()).join();
            return fakes.backend(manifest);
        });
    }

    private CompletableFuture<Void> releaseOf(String pod) {
        return release.computeIfAbsent(pod, p -> new CompletableFuture<>());
    }

    @Test
    void aPreWarmMakesThePodsRuntimeOnThePodThreadsNotTheCallers() {
        PodSet set = podSet("a");
        CompletableFuture<Void> started = set.pod("a").start();
        CompletableFuture<Void> again = set.pod("a").start();
        assertThat(started).as("the caller does not wait for the runtime").isNotDone();
        assertThat(set.pod("a").state().state()).as("reading the state does not wait either").isEqualTo("Starting");

        releaseOf("a").complete(null);
        assertThat(started).succeedsWithin(T);
        assertThat(again).succeedsWithin(T);
        assertThat(madeOn.get("a")).startsWith("meta-gateway-pods-");
        assertThat(entered).as("concurrent pre-warms share one runtime").containsExactly("a");
        assertThat(fakes.starts.get("a").get()).isEqualTo(1);
        set.close();
        assertThat(fakes.closed).containsExactly("a");
    }

    @Test
    void aPreWarmWhoseCallerGivesUpLeavesTheOthersWaiting() {
        PodSet set = podSet("a");
        CompletableFuture<Void> timedOut = set.pod("a").start();
        CompletableFuture<Void> other = set.pod("a").start();
        timedOut.completeExceptionally(new java.util.concurrent.TimeoutException());
        releaseOf("a").complete(null);
        assertThat(other).succeedsWithin(T);
        set.close();
    }

    @Test
    void closingDuringAPreWarmFailsItAndLeavesNoRuntime() {
        PodSet set = podSet("b", "c", "d", "e", "a");
        List<CompletableFuture<Void>> busy = List.of("b", "c", "d", "e").stream().map(n -> set.pod(n).start()).toList();
        await().atMost(T).until(() -> entered.containsAll(List.of("b", "c", "d", "e")));
        CompletableFuture<Void> queued = set.pod("a").start();   // the four pod threads are making the others' runtimes
        CompletableFuture<Void> closing = CompletableFuture.runAsync(set::close);

        Throwable failure = queued.handle((ok, error) -> Failures.unwrap(error)).join();
        assertThat(failure).isInstanceOf(PodBackend.PodFailure.class);
        assertThat(((PodBackend.PodFailure) failure).kind()).isEqualTo(PodBackend.PodFailure.Kind.UNAVAILABLE);
        assertThat(failure).hasMessageContaining("stopped before it started");

        List.of("b", "c", "d", "e").forEach(n -> releaseOf(n).complete(null));
        assertThat(closing).succeedsWithin(T);
        busy.forEach(start -> assertThat(start).succeedsWithin(T));
        assertThat(entered).as("no runtime is made for the pod stopped first").doesNotContain("a");
        assertThat(fakes.closed).as("every runtime made is closed").containsExactlyInAnyOrder("b", "c", "d", "e");
        assertThat(set.pod("a").start()).failsWithin(T);
    }

    @Test
    void aFirstRequestHasThePodsRuntimeMadeOnThePodThreadsSharedWithAPreWarmAndACall() {
        PodSet set = podSet("a");
        ObjectNode params = JsonRpc.NODES.objectNode().put("uri", "pod://a/r");
        CompletableFuture<JsonNode> read = set.pod("a").request("resources/read", params, T);
        assertThat(read).as("the caller does not wait for the runtime").isNotDone();
        assertThat(set.pod("a").state().state()).isEqualTo("Starting");
        CompletableFuture<Void> started = set.pod("a").start();
        InFlight<JsonNode> call = set.pod("a").call("t", JsonRpc.NODES.objectNode(), context());
        assertThat(call.result()).isNotDone();

        releaseOf("a").complete(null);
        assertThat(read).succeedsWithin(T).satisfies(r -> assertThat(r.at("/contents/0/text").asText()).isEqualTo("from a"));
        assertThat(started).succeedsWithin(T);
        assertThat(call.result()).succeedsWithin(T);
        assertThat(madeOn.get("a")).as("made on a pod thread, not the caller's").startsWith("meta-gateway-pods-");
        assertThat(entered).as("the request, the pre-warm and the call share one runtime").containsExactly("a");
        set.close();
        assertThat(fakes.closed).containsExactly("a");
    }

    @Test
    void closingBeforeAFirstRequestsRuntimeIsMadeAnswersItWithUnavailable() {
        PodSet set = podSet("b", "c", "d", "e", "a");
        List.of("b", "c", "d", "e").forEach(n -> set.pod(n).start());
        await().atMost(T).until(() -> entered.containsAll(List.of("b", "c", "d", "e")));
        // the four pod threads are making the others' runtimes
        CompletableFuture<JsonNode> read = set.pod("a").request("prompts/get", JsonRpc.NODES.objectNode().put("name", "p"), T);
        CompletableFuture<Void> closing = CompletableFuture.runAsync(set::close);

        Throwable failure = read.handle((ok, error) -> Failures.unwrap(error)).join();
        assertThat(failure).isInstanceOf(PodBackend.PodFailure.class).hasMessageContaining("stopped before it started");
        assertThat(((PodBackend.PodFailure) failure).rpcCode()).isEqualTo(-32002);

        List.of("b", "c", "d", "e").forEach(n -> releaseOf(n).complete(null));
        assertThat(closing).succeedsWithin(T);
        assertThat(entered).as("no runtime is made for the pod stopped first").doesNotContain("a");
        assertThat(set.pod("a").request("prompts/get", JsonRpc.NODES.objectNode().put("name", "p"), T)).failsWithin(T);
    }

    private static PodBackend.CallContext context() {
        return new PodBackend.CallContext("c1", T, progress -> { }, request -> CompletableFuture.completedFuture(null),
                new CallScope(List.of("a.t"), Long.MAX_VALUE, null, null, System::nanoTime));
    }

    @Test
    void aRuntimeThatCannotBeMadeFailsThePreWarmAsAFailedStartThatTheStatusShows() {
        PodSet set = new PodSet(List.of(FakePods.pod("a", Set.of(), List.of())), (manifest, threads, withheld) -> {
            throw new IllegalStateException("no runtime for pod a");
        });
        Throwable failure = set.pod("a").start().handle((ok, error) -> Failures.unwrap(error)).join();
        assertThat(failure).isInstanceOf(PodBackend.PodFailure.class).hasMessageContaining("no runtime for pod a");
        assertThat(((PodBackend.PodFailure) failure).kind()).isEqualTo(PodBackend.PodFailure.Kind.START_FAILED);
        PodBackend.PodState state = set.pod("a").state();
        assertThat(state.state()).isEqualTo("Failed");
        assertThat(state.lastError()).contains("no runtime for pod a");
        set.close();
        assertThat(set.pod("a").state().state()).isEqualTo("Stopped");
    }
}
