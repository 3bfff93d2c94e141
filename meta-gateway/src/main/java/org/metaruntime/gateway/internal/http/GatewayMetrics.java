package org.metaruntime.gateway.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.metaruntime.gateway.internal.serve.CallObserver;
import org.metaruntime.gateway.internal.serve.GatewayServer;

/**
 * The gateway's metrics in a Prometheus registry: tool calls, their errors (by code) and a latency histogram per
 * pod and tool; pods running and each pod's restarts (read off the status report at each scrape); sessions open
 * per transport; calls waiting for their client's input; the JVM's memory, threads and garbage collection. Thread-safe.
 */
final class GatewayMetrics implements CallObserver, AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final Map<String, Counter> errors = new ConcurrentHashMap<>();
    private final Map<String, Timer> operations = new ConcurrentHashMap<>();
    private final GatewayServer server;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private volatile JsonNode status;

    GatewayMetrics(GatewayServer server, SessionRegistry sessions) {
        this.server = server;
        this.status = server.status();
        Gauge.builder("meta_gateway_sessions_open", sessions, s -> s.count(StreamableSession.class))
                .description("Client sessions open").tag("transport", "streamable-http").register(registry);
        Gauge.builder("meta_gateway_sessions_open", sessions, s -> s.count(LegacySession.class))
                .description("Client sessions open").tag("transport", "sse").register(registry);
        Gauge.builder("meta_gateway_calls_awaiting_input", server, GatewayServer::callsAwaitingInput)
                .description("Calls of 2026-07-28 clients waiting for the client's input (answered input_required, not retried yet)")
                .register(registry);
        Gauge.builder("meta_gateway_pods_running", this, m -> m.running())
                .description("Pods with a process up").register(registry);
        for (Iterator<String> names = status.path("pods").fieldNames(); names.hasNext(); ) {
            String pod = names.next();
            FunctionCounter.builder("meta_gateway_pod_restarts", this, m -> m.status.path("pods").path(pod).path("restarts").asDouble())
                    .description("Restarts of the pod by the runtime's supervision").tag("pod", pod).register(registry);
        }
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        gc.bindTo(registry);
        server.observeCalls(this);
        server.dispatcher().observe(this::answered);
    }

    /**
     * {@code mcp_server_operation_duration_seconds}, the OpenTelemetry MCP histogram: every request answered, by
     * {@code mcp_method_name}, {@code gen_ai_tool_name} (a {@code tools/call} of a served tool) and {@code error_type}
     * (the JSON-RPC code, or {@code tool_error}); an empty label is an absent one.
     */
    private void answered(String method, JsonNode params, long nanos, Integer errorCode, JsonNode result) {
        String tool = "tools/call".equals(method) && params != null && params.path("name").isTextual()
                && server.servesTool(params.get("name").asText()) ? params.get("name").asText() : "";
        String error = errorCode != null ? errorCode.toString()
                : result != null && result.path("isError").asBoolean(false) ? "tool_error" : "";
        String key = method + '\u0000' + tool + '\u0000' + error;
        operations.computeIfAbsent(key, k -> Timer.builder("mcp.server.operation.duration")
                .description("MCP requests the gateway answered, with their duration")
                .tags("mcp_method_name", method, "gen_ai_tool_name", tool, "error_type", error)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void completed(String pod, String tool, long nanos, int errorCode) {
        String key = pod + '\u0000' + tool;
        timers.computeIfAbsent(key, k -> Timer.builder("meta_gateway_tool_calls")
                .description("Tool calls routed to pods, with their latency")
                .tags("pod", pod, "tool", tool)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(50_000))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
        if (errorCode != 0) {
            String code = Integer.toString(errorCode);
            errors.computeIfAbsent(key + '\u0000' + code, k -> Counter.builder("meta_gateway_tool_call_errors")
                    .description("Tool calls that ended in an error, by JSON-RPC code")
                    .tags("pod", pod, "tool", tool, "code", code).register(registry)).increment();
        }
    }

    private double running() {
        int n = 0;
        for (JsonNode pod : status.path("pods")) {
            if (pod.hasNonNull("pid")) {
                n++;
            }
        }
        return n;
    }

    /** Stops listening to the JVM's garbage collections. */
    @Override
    public void close() {
        gc.close();
    }

    /** The Prometheus text exposition, with the pod figures as of now. */
    String scrape() {
        status = server.status();
        return registry.scrape();
    }
}
