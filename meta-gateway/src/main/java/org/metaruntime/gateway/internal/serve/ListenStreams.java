package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/**
 * The open {@code subscriptions/listen} streams of modern clients: each is acknowledged with the filter it is
 * honored with ({@code toolsListChanged}, {@code promptsListChanged}, {@code resourcesListChanged}), then gets the
 * list changes it asked for, tagged with its subscription id, on its request's own stream. A stream ends when its
 * client cancels it, or when the gateway stops: it is then answered. Thread-safe.
 */
final class ListenStreams {

    /** The filter key of each list change notification. */
    private static final Map<String, String> FILTER_KEY = Map.of(
            "notifications/tools/list_changed", "toolsListChanged",
            "notifications/prompts/list_changed", "promptsListChanged",
            "notifications/resources/list_changed", "resourcesListChanged");

    private record Stream(Dispatcher.Request request, ObjectNode honored, CompletableFuture<JsonNode> end) {
    }

    private final Set<Stream> open = ConcurrentHashMap.newKeySet();

    /** Opens a stream for the modern request {@code request}; the future completes when the stream ends. */
    CompletableFuture<JsonNode> listen(Dispatcher.Request request) {
        ObjectNode honored = JsonRpc.NODES.objectNode();
        JsonNode asked = request.params().path("notifications");
        for (String key : FILTER_KEY.values()) {
            if (asked.path(key).asBoolean(false) && asked.path(key).isBoolean()) {
                honored.put(key, true);
            }
        }
        Stream stream = new Stream(request, honored, new CompletableFuture<>());
        ObjectNode ack = JsonRpc.NODES.objectNode();
        ack.set("_meta", subscription(request));
        ack.set("notifications", honored);
        request.session().notify("notifications/subscriptions/acknowledged", ack, request.id());
        open.add(stream);
        request.onCancel(() -> {
            open.remove(stream);
            stream.end().complete(null);
        });
        return stream.end();
    }

    /** Sends the list change {@code method} to every stream whose filter asked for it. */
    void changed(String method) {
        String key = FILTER_KEY.get(method);
        if (key == null) {
            return;
        }
        for (Stream stream : open) {
            if (stream.honored().has(key)) {
                ObjectNode params = JsonRpc.NODES.objectNode();
                params.set("_meta", subscription(stream.request()));
                stream.request().session().notify(method, params, stream.request().id());
            }
        }
    }

    /** Ends every stream with the listen request's result (the gateway stops). */
    void endAll() {
        for (Stream stream : open) {
            if (open.remove(stream)) {
                ObjectNode result = JsonRpc.NODES.objectNode();
                result.set("_meta", subscription(stream.request()));
                stream.end().complete(result);
            }
        }
    }

    private static ObjectNode subscription(Dispatcher.Request request) {
        ObjectNode meta = JsonRpc.NODES.objectNode();
        meta.set(Eras.SUBSCRIPTION_ID_KEY, request.id());
        return meta;
    }
}
