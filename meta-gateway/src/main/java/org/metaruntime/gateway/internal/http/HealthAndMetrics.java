package org.metaruntime.gateway.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.metaruntime.gateway.internal.cluster.ReplicaRegistry;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.serve.GatewayServer;

/**
 * {@code GET /healthz}: 200 {@code {"status":"ok","pods":{name: state}}} while serving, 503 with status
 * {@code stopping} once serving stops, and for a replica of a cluster 503 with status {@code unready} until it is
 * registered and while its database cannot be reached (with {@code "replica":{"id","registered","database"}}); {@code GET /metrics}: the Prometheus text format. Thread-safe.
 */
final class HealthAndMetrics extends Handler.Abstract {

    private final GatewayServer server;
    private final SessionRegistry sessions;
    private final GatewayMetrics metrics;
    private volatile ReplicaRegistry cluster;

    HealthAndMetrics(GatewayServer server, SessionRegistry sessions, GatewayMetrics metrics) {
        this.server = server;
        this.sessions = sessions;
        this.metrics = metrics;
    }

    /** Makes {@code /healthz} ready once {@code registry}'s replica has registered (and say whether its database is reachable). */
    void cluster(ReplicaRegistry registry) {
        this.cluster = registry;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            Exchanges.rpcError(response, callback, 405, null, JsonRpc.INVALID_REQUEST, "GET only");
            return true;
        }
        if (request.getHttpURI().getPath().equals(AccessCheck.HEALTH_PATH)) {
            ReplicaRegistry replicas = cluster;
            boolean ready = replicas == null || replicas.ready();
            String status = !sessions.accepting() ? "stopping" : ready ? "ok" : "unready";
            ObjectNode health = JsonRpc.NODES.objectNode().put("status", status);
            if (replicas != null) {
                health.putObject("replica").put("id", replicas.self()).put("registered", replicas.registered())
                        .put("database", replicas.reachable() ? "reachable" : "unreachable");
            }
            ObjectNode pods = health.putObject("pods");
            for (Iterator<Map.Entry<String, JsonNode>> it = server.status().path("pods").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> pod = it.next();
                pods.put(pod.getKey(), pod.getValue().path("state").asText());
            }
            Exchanges.json(response, callback, sessions.accepting() && ready ? 200 : 503, JsonRpc.write(health));
            return true;
        }
        byte[] text = metrics.scrape().getBytes(StandardCharsets.UTF_8);
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, text.length);
        response.write(true, ByteBuffer.wrap(text), callback);
        return true;
    }
}
