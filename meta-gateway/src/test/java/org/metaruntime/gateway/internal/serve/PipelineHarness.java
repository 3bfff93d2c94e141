package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PolicyDocument;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.spi.CallRecord;
import org.metaruntime.gateway.spi.Principal;

/**
 * A gateway server over {@link FakePods} with a policy, a clock the test moves, and the call records its listeners
 * got; clients are sessions of given principals whose answers the harness collects.
 */
final class PipelineHarness implements AutoCloseable {

    final FakePods pods = new FakePods();
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final BlockingQueue<CallRecord> records = new LinkedBlockingQueue<>();
    final GatewayServer server;
    private final AtomicInteger ids = new AtomicInteger();

    PipelineHarness(Catalog catalog, PolicyDocument policy, String localProfile) {
        CallSettings settings = CallSettings.defaults().withAccess(new Access(policy, localProfile))
                .withListeners(List.of(records::add), false);
        settings = new CallSettings(settings.access(), settings.tracer(), settings.definitions(), settings.listeners(),
                settings.auditArguments(), nanos::get);
        server = new GatewayServer(catalog, pods.podSet(catalog), 4, settings);
        server.start();
    }

    PipelineHarness(Catalog catalog, CallSettings settings) {
        server = new GatewayServer(catalog, pods.podSet(catalog), 4, settings);
        server.start();
    }

    /** A client session of {@code principal}. */
    Client client(Principal principal) {
        return new Client(principal);
    }

    /** The next call record (listeners run on their own thread). */
    CallRecord record() throws InterruptedException {
        CallRecord record = records.poll(10, TimeUnit.SECONDS);
        if (record == null) {
            throw new AssertionError("no call record came");
        }
        return record;
    }

    @Override
    public void close() {
        server.close();
    }

    /** One client: sends requests and waits for their answers. */
    final class Client {
        private final ClientSession session;
        private final Map<Integer, CompletableFuture<JsonNode>> answers = new ConcurrentHashMap<>();
        final List<JsonNode> messages = new CopyOnWriteArrayList<>();

        Client(Principal principal) {
            session = new ClientSession("t" + ids.incrementAndGet(), message -> {
                messages.add(message);
                JsonNode id = message.get("id");
                if (id != null && id.isInt() && (message.has("result") || message.has("error"))) {
                    answers.computeIfAbsent(id.intValue(), k -> new CompletableFuture<>()).complete(message);
                }
            }, true, principal);
        }

        /** The whole answer (result or error) to {@code method} with {@code params}. */
        JsonNode request(String method, JsonNode params) throws Exception {
            int id = ids.incrementAndGet();
            lastId = id;
            ObjectNode message = JsonRpc.NODES.objectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
            message.set("params", params);
            CompletableFuture<JsonNode> answer = answers.computeIfAbsent(id, k -> new CompletableFuture<>());
            server.dispatcher().onMessage(session, message);
            return answer.get(10, TimeUnit.SECONDS);
        }

        private volatile int lastId;

        /** The id of the last request sent. */
        int lastId() {
            return lastId;
        }

        /** Sends the notification {@code method}. */
        void notify(String method, JsonNode params) {
            ObjectNode message = JsonRpc.NODES.objectNode().put("jsonrpc", "2.0").put("method", method);
            message.set("params", params);
            server.dispatcher().onMessage(session, message);
        }

        /** {@code tools/call} of {@code name} with {@code arguments} (null: none). */
        JsonNode call(String name, JsonNode arguments) throws Exception {
            ObjectNode params = JsonRpc.NODES.objectNode().put("name", name);
            if (arguments != null) {
                params.set("arguments", arguments);
            }
            return request("tools/call", params);
        }

        /** The outward names {@code tools/list} gives, in order. */
        List<String> toolNames() throws Exception {
            JsonNode answer = request("tools/list", JsonRpc.NODES.objectNode());
            List<String> names = new java.util.ArrayList<>();
            answer.at("/result/tools").forEach(t -> names.add(t.path("name").asText()));
            return names;
        }
    }
}
