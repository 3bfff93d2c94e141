package org.metaruntime.gateway.internal.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.internal.cluster.Replica;
import org.metaruntime.gateway.internal.cluster.Replicas;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.internal.serve.ServedView;
import org.metaruntime.gateway.spi.Principal;
import org.metaruntime.supervisor.internal.DaemonThreads;

/**
 * The console's JSON endpoints, {@code GET /console/api/<name>}: {@code me}, {@code pods}, {@code tools},
 * {@code calls}, {@code latency} and {@code replicas}, each showing only what the requesting principal's profiles
 * allow (the principal the access check put on the request). Answers {@code Cache-Control: no-store}. Thread-safe.
 */
public final class ConsoleApi extends Handler.Abstract {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ConsoleApi.class);

    /** The prefix of its paths. */
    public static final String PATH = "/console/api";
    /** The most characters of a pod's stderr tail answered (its end). */
    static final int STDERR_CHARS = 4096;
    /** The default and the largest page of calls. */
    static final int PAGE = 50;
    static final int MAX_PAGE = 500;
    private static final int RECENT_MINUTES = 5;

    private final ConsoleSource view;
    private final AuditIndex audit;
    private final LatencyWindows latency;
    private final Replicas replicas;
    private final LongSupplier clockMs;
    private final Map<Long, Optional<Long>> startedMs = new ConcurrentHashMap<>();

    /**
     * @param log      the audit's event log, null when calls are not audited
     * @param latency  told of every call of the gateway (see {@link #observer})
     */
    ConsoleApi(ConsoleSource view, EventLog log, LatencyWindows latency, Replicas replicas, LongSupplier clockMs) {
        this.view = view;
        this.audit = log == null ? null : new AuditIndex(log);
        this.latency = latency;
        this.replicas = replicas;
        this.clockMs = clockMs;
    }

    /** An API over {@code view} whose latency figures come from {@code latency} (registered as a call observer). */
    public static ConsoleApi create(ServedView view, EventLog log, Replicas replicas,
                                    java.util.function.Consumer<org.metaruntime.gateway.internal.serve.CallObserver> observe) {
        LatencyWindows windows = new LatencyWindows(System::currentTimeMillis);
        observe.accept(windows);
        ConsoleApi api = new ConsoleApi(ConsoleSource.of(view), log, windows, replicas, System::currentTimeMillis);
        if (api.audit != null) {
            DaemonThreads.thread("meta-gateway-console-audit", () -> {
                try {
                    api.audit.warm();
                } catch (RuntimeException e) {
                    LOG.warn("the console could not read the audit yet: {}", e.toString());
                }
            }).start();
        }
        return api;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            return answer(response, callback, 405, error("GET only"));
        }
        Principal principal = request.getAttribute(Principal.class.getName()) instanceof Principal p ? p : Principals.ANONYMOUS;
        String path = request.getHttpURI().getCanonicalPath() == null ? request.getHttpURI().getPath()
                : request.getHttpURI().getCanonicalPath();
        String name = path.startsWith(PATH + "/") ? path.substring(PATH.length() + 1) : "";
        Fields query = Request.extractQueryParameters(request);
        try {
            ObjectNode body = switch (name) {
                case "me" -> me(principal);
                case "pods" -> pods(principal);
                case "tools" -> tools(principal);
                case "calls" -> calls(principal, query);
                case "latency" -> latency(principal, query.getValue("pod"));
                case "replicas" -> replicas();
                default -> null;
            };
            if (body == null) {
                return answer(response, callback, 404, error("no such endpoint: " + path));
            }
            return answer(response, callback, 200, body);
        } catch (IllegalArgumentException e) {
            return answer(response, callback, 400, error(e.getMessage()));
        }
    }

    ObjectNode me(Principal principal) {
        ObjectNode out = JsonRpc.NODES.objectNode().put("principal", principal.name());
        ArrayNode profiles = out.putArray("profiles");
        view.profilesOf(principal).forEach(profiles::add);
        boolean admin = view.admin(principal);
        out.put("admin", admin);
        out.put("audited", audit != null);
        out.put("events", admin && audit != null);
        return out;
    }

    ObjectNode pods(Principal principal) {
        ObjectNode out = JsonRpc.NODES.objectNode().put("now", clockMs.getAsLong());
        ArrayNode pods = out.putArray("pods");
        for (ServedView.PodView pod : view.pods(principal)) {
            ObjectNode p = pods.addObject().put("name", pod.name()).put("state", pod.state());
            if (pod.pid().isPresent()) {
                p.put("pid", pod.pid().getAsLong());
                Optional<Long> started = startedMs.computeIfAbsent(pod.pid().getAsLong(), ConsoleApi::processStart);
                if (started.isPresent()) {
                    p.put("uptimeSeconds", Math.max(0, (clockMs.getAsLong() - started.get()) / 1000));
                } else {
                    p.putNull("uptimeSeconds");
                }
            } else {
                p.putNull("pid").putNull("uptimeSeconds");
            }
            p.put("restarts", pod.restarts()).put("callsServed", pod.callsServed()).put("callsFailed", pod.callsFailed());
            LatencyWindows.Percentiles recent = latency.percentiles(pod.name(), RECENT_MINUTES);
            putNumber(p, "p50Ms", recent.p50Ms());
            putNumber(p, "p95Ms", recent.p95Ms());
            putText(p, "era", pod.era());
            putText(p, "lastError", pod.lastError());
            String tail = pod.stderrTail();
            p.put("stderrTail", tail.length() > STDERR_CHARS ? tail.substring(tail.length() - STDERR_CHARS) : tail);
        }
        if (startedMs.size() > 4096) {
            startedMs.clear();
        }
        return out;
    }

    ObjectNode tools(Principal principal) {
        ObjectNode out = JsonRpc.NODES.objectNode();
        ArrayNode tools = out.putArray("tools");
        for (ServedView.ToolView tool : view.tools(principal)) {
            ObjectNode t = tools.addObject().put("name", tool.outward()).put("pod", tool.pod()).put("podTool", tool.tool())
                    .put("description", tool.description());
            if (tool.contractId() == null) {
                t.putNull("contract");
            } else {
                t.putObject("contract").put("id", tool.contractId()).put("version", tool.contractVersion());
            }
            putText(t, "schemaHash", tool.schemaHash());
            putText(t, "definitionHash", tool.definitionHash());
            putText(t, "pin", tool.pin());
            putText(t, "drift", tool.drift());
            ArrayNode profiles = t.putArray("profiles");
            tool.profiles().forEach(profiles::add);
        }
        return out;
    }

    ObjectNode calls(Principal principal, Fields query) {
        ObjectNode out = JsonRpc.NODES.objectNode().put("audited", audit != null);
        ArrayNode calls = out.putArray("calls");
        if (audit == null) {
            out.putNull("before");
            return out;
        }
        int limit = intParam(query.getValue("limit"), PAGE);
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_PAGE);
        }
        String before = query.getValue("before");
        Long beforeSeq = before == null || before.isEmpty() ? null : (long) intParam(before, 0);
        AuditIndex.Filter filter = new AuditIndex.Filter(blankless(query.getValue("pod")), blankless(query.getValue("tool")),
                blankless(query.getValue("principal")), blankless(query.getValue("outcome")));
        AuditIndex.Page page = audit.page(filter, beforeSeq, limit, call -> view.seesCall(principal, call.tool(), call.pod()));
        for (AuditIndex.Call call : page.calls()) {
            ObjectNode c = calls.addObject().put("seq", call.seq()).put("timeMs", call.timeMs());
            putText(c, "callId", call.callId());
            putText(c, "principal", call.principal());
            putText(c, "profile", call.profile());
            putText(c, "tool", call.tool());
            putText(c, "pod", call.pod());
            putText(c, "outcome", call.outcome());
            if (call.errorCode() == null) {
                c.putNull("errorCode");
            } else {
                c.put("errorCode", call.errorCode());
            }
            c.put("durationMs", call.durationMs());
            putText(c, "traceId", call.traceId());
        }
        if (page.before() == null) {
            out.putNull("before");
        } else {
            out.put("before", page.before());
        }
        return out;
    }

    ObjectNode latency(Principal principal, String pod) {
        if (pod == null || pod.isEmpty()) {
            throw new IllegalArgumentException("give the pod: ?pod=<name>");
        }
        if (view.pods(principal).stream().noneMatch(p -> p.name().equals(pod))) {
            return null;
        }
        ObjectNode out = JsonRpc.NODES.objectNode().put("pod", pod);
        ArrayNode minutes = out.putArray("minutes");
        for (LatencyWindows.Minute minute : latency.series(pod)) {
            ObjectNode m = minutes.addObject().put("startMs", minute.startMs()).put("calls", minute.calls());
            putNumber(m, "p95Ms", minute.p95Ms());
        }
        return out;
    }

    ObjectNode replicas() {
        long now = clockMs.getAsLong();
        ObjectNode out = JsonRpc.NODES.objectNode().put("self", replicas.self());
        ArrayNode list = out.putArray("replicas");
        for (Replica replica : replicas.live()) {
            list.addObject().put("id", replica.id()).put("url", String.valueOf(replica.url()))
                    .put("heartbeatAgeMs", Math.max(0, now - replica.heartbeatMs())).put("self", replica.id().equals(replicas.self()));
        }
        return out;
    }

    private static Optional<Long> processStart(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).map(java.time.Instant::toEpochMilli);
    }

    private static int intParam(String value, int otherwise) {
        if (value == null || value.isEmpty()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + value);
        }
    }

    private static String blankless(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static void putText(ObjectNode node, String key, String value) {
        if (value == null) {
            node.putNull(key);
        } else {
            node.put(key, value);
        }
    }

    private static void putNumber(ObjectNode node, String key, Double value) {
        if (value == null) {
            node.putNull(key);
        } else {
            node.put(key, value);
        }
    }

    private static ObjectNode error(String message) {
        return JsonRpc.NODES.objectNode().put("error", message);
    }

    private static boolean answer(Response response, Callback callback, int status, ObjectNode body) {
        byte[] bytes = JsonRpc.write(body).getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
        return true;
    }
}
