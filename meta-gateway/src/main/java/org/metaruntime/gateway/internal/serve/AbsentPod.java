package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.supervisor.InFlight;

/** A pod that is not served (any more): it has no tools, and every call and request fails with -32002. Immutable. */
final class AbsentPod implements PodBackend.Pod {

    private final String name;

    AbsentPod(String name) {
        this.name = name;
    }

    private PodBackend.PodFailure gone() {
        return new PodBackend.PodFailure(PodBackend.PodFailure.Kind.UNAVAILABLE, "pod " + name + " is not served (any more)",
                OptionalInt.empty(), "");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean running() {
        return false;
    }

    @Override
    public CompletableFuture<Void> start() {
        return CompletableFuture.failedFuture(gone());
    }

    @Override
    public List<ObjectNode> liveTools() {
        return List.of();
    }

    @Override
    public InFlight<JsonNode> call(String tool, JsonNode arguments, PodBackend.CallContext context) {
        return InFlight.failed(gone());
    }

    @Override
    public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout) {
        return CompletableFuture.failedFuture(gone());
    }

    @Override
    public PodBackend.PodState state() {
        return new PodBackend.PodState("Stopped", OptionalLong.empty(), 0, null, "");
    }
}
