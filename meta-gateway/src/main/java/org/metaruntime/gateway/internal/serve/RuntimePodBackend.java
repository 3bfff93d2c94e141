package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.metaruntime.gateway.GatewayOptions;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;

/** The pods as modules of one {@code UnifiedRuntime}. */
final class RuntimePodBackend implements PodBackend {

    private final Catalog catalog;
    private final Map<String, RuntimePod> pods = new ConcurrentHashMap<>();

    RuntimePodBackend(Catalog catalog, GatewayOptions options) {
        this.catalog = catalog;
        for (PodManifest manifest : catalog.pods()) {
            pods.put(manifest.name(), new RuntimePod(manifest));
        }
    }

    @Override
    public Pod pod(String name) {
        return pods.get(name);
    }

    @Override
    public void listen(PodListener listener) {
    }

    @Override
    public void close() {
    }

    private static final class RuntimePod implements Pod {
        private final PodManifest manifest;

        RuntimePod(PodManifest manifest) {
            this.manifest = manifest;
        }

        @Override
        public String name() {
            return manifest.name();
        }

        @Override
        public boolean running() {
            return false;
        }

        @Override
        public CompletableFuture<Void> start() {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("pending the runtime's call API"));
        }

        @Override
        public List<ObjectNode> liveTools() {
            return List.of();
        }

        @Override
        public PodCall call(String tool, JsonNode arguments, CallContext context) {
            throw new UnsupportedOperationException("pending the runtime's call API");
        }

        @Override
        public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout) {
            throw new UnsupportedOperationException("pending the runtime's call API");
        }

        @Override
        public PodState state() {
            return new PodState("NotStarted", OptionalLong.empty(), 0, null, "");
        }
    }
}
