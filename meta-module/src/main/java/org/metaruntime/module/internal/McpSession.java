package org.metaruntime.module.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.module.Tool;
import org.metaruntime.module.ToolException;
import org.metaruntime.module.ToolHandler;
import org.metaruntime.module.ToolResult;

/**
 * One MCP session over a pair of streams: the reading loop on the calling thread, tool calls on a bounded pool
 * of worker threads, answers through one {@link LineWriter}. Used by one thread ({@link #run(InputStream)}).
 */
public final class McpSession {

    /** A tool and its code. */
    public record ToolEntry(Tool tool, ToolHandler handler) {
    }

    /** The protocol revisions answered, newest first. */
    static final List<String> VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    /** The first revision with {@code outputSchema} and {@code structuredContent}. */
    private static final String STRUCTURED_FROM = "2025-06-18";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger SESSIONS = new AtomicInteger();

    private final String name;
    private final String version;
    private final Map<String, ToolEntry> tools;
    private final SessionLimits limits;
    private final LineWriter writer;
    private final PrintStream log;
    private final List<String> toolOrder;
    private final Map<JsonNode, InFlight> inFlight = new ConcurrentHashMap<>();
    private volatile String protocolVersion = VERSIONS.get(0);

    /** A call being answered; {@code cancelled} means its answer must not be sent. */
    private record InFlight(Future<?> future, AtomicBoolean cancelled) {
    }

    public McpSession(String name, String version, Map<String, ToolEntry> tools, SessionLimits limits,
                      OutputStream out, PrintStream log) {
        this.name = name;
        this.version = version;
        this.tools = Map.copyOf(tools);
        this.limits = limits;
        this.log = log;
        this.writer = new LineWriter(out, JSON, log);
        this.toolOrder = List.copyOf(tools.keySet());
    }

    /** Reads {@code in} to its end, answering each message, then waits for the calls in flight. */
    public void run(InputStream in) {
        int session = SESSIONS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        BlockingQueue<Runnable> queue = limits.maxQueuedCalls() == 0
                ? new SynchronousQueue<>() : new LinkedBlockingQueue<>(limits.maxQueuedCalls());
        ThreadPoolExecutor workers = new ThreadPoolExecutor(limits.maxConcurrentCalls(), limits.maxConcurrentCalls(),
                10, TimeUnit.SECONDS, queue, task -> {
                    Thread thread = new Thread(task, "meta-module-" + session + "-call-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        workers.allowCoreThreadTimeOut(true);
        LineReader reader = new LineReader(in, limits.maxLineBytes());
        try {
            for (LineReader.Line line; (line = reader.next()) != null; ) {
                if (line.tooLong()) {
                    log(String.format("skipped an input line of %d bytes (longer than %d)", line.length(),
                            limits.maxLineBytes()));
                } else if (!isBlank(line.bytes())) {
                    handle(line.bytes(), workers);
                }
            }
        } catch (IOException e) {
            log("stdin failed, ending the session: " + e.getMessage());
        }
        drain(workers);
    }

    private void drain(ThreadPoolExecutor workers) {
        workers.shutdown();
        try {
            if (!workers.awaitTermination(limits.drainTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                log(String.format("end of input: %d call(s) still running after %d ms are abandoned",
                        workers.getActiveCount() + workers.getQueue().size(), limits.drainTimeout().toMillis()));
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void handle(byte[] bytes, ThreadPoolExecutor workers) {
        JsonNode message;
        try {
            message = JSON.readTree(bytes);
        } catch (IOException e) {
            log("skipped an input line that is not JSON: " + preview(bytes));
            return;
        }
        if (message == null || !message.isObject()) {
            log("skipped an input line that is not a JSON object: " + preview(bytes));
            return;
        }
        JsonNode id = message.get("id");
        JsonNode method = message.get("method");
        if (method == null) {
            return; // a response: this server sends no requests
        }
        boolean validId = id == null || id.isTextual() || id.isIntegralNumber();
        if (!"2.0".equals(message.path("jsonrpc").asText()) || !method.isTextual() || !validId) {
            if (id != null && validId) {
                writer.write(error(id, -32600, "Invalid Request"));
            } else {
                log("skipped a message that is not a JSON-RPC 2.0 request: " + preview(bytes));
            }
            return;
        }
        JsonNode params = message.path("params");
        if (id == null) {
            notification(method.asText(), params);
            return;
        }
        switch (method.asText()) {
            case "initialize" -> writer.write(result(id, initialize(params)));
            case "ping" -> writer.write(result(id, JSON.createObjectNode()));
            case "tools/list" -> writer.write(result(id, toolList()));
            case "tools/call" -> submit(id, params, workers);
            default -> writer.write(error(id, -32601, "Method not found: " + method.asText()));
        }
    }

    private void notification(String method, JsonNode params) {
        if ("notifications/cancelled".equals(method)) {
            InFlight call;
            synchronized (inFlight) {
                call = inFlight.remove(params.path("requestId"));
            }
            if (call != null && call.cancelled().compareAndSet(false, true)) {
                call.future().cancel(true);
            }
        }
    }

    private ObjectNode initialize(JsonNode params) {
        String requested = params.path("protocolVersion").asText();
        protocolVersion = VERSIONS.contains(requested) ? requested : VERSIONS.get(0);
        ObjectNode result = JSON.createObjectNode();
        result.put("protocolVersion", protocolVersion);
        result.putObject("capabilities").putObject("tools").put("listChanged", false);
        result.putObject("serverInfo").put("name", name).put("version", version);
        return result;
    }

    private boolean structured() {
        return protocolVersion.compareTo(STRUCTURED_FROM) >= 0; // ISO dates compare as strings
    }

    private ObjectNode toolList() {
        ObjectNode result = JSON.createObjectNode();
        ArrayNode list = result.putArray("tools");
        boolean structured = structured();
        for (String toolName : toolOrder) {
            Tool tool = tools.get(toolName).tool();
            ObjectNode entry = list.addObject();
            entry.put("name", tool.name());
            if (!tool.description().isEmpty()) {
                entry.put("description", tool.description());
            }
            entry.set("inputSchema", tool.inputSchema());
            if (structured && tool.outputSchema() != null) {
                entry.set("outputSchema", tool.outputSchema());
            }
        }
        return result;
    }

    private void submit(JsonNode id, JsonNode params, ThreadPoolExecutor workers) {
        String toolName = params.path("name").asText(null);
        ToolEntry entry = toolName == null ? null : tools.get(toolName);
        if (entry == null) {
            writer.write(error(id, -32602, "Unknown tool: " + toolName));
            return;
        }
        JsonNode arguments = params.get("arguments");
        if (arguments == null || arguments.isNull()) {
            arguments = JSON.createObjectNode();
        } else if (!arguments.isObject()) {
            writer.write(error(id, -32602, "tool " + toolName + ": arguments must be a JSON object"));
            return;
        }
        if (inFlight.containsKey(id)) {
            writer.write(error(id, -32600, "request id " + id + " is already in flight"));
            return;
        }
        AtomicBoolean cancelled = new AtomicBoolean();
        JsonNode args = arguments;
        synchronized (inFlight) {
            try {
                Future<?> future = workers.submit(() -> runCall(id, entry, args, cancelled));
                inFlight.put(id, new InFlight(future, cancelled));
            } catch (RejectedExecutionException e) {
                writer.write(error(id, -32000, "the module is busy: " + limits.maxConcurrentCalls()
                        + " calls running and " + limits.maxQueuedCalls() + " waiting"));
            }
        }
    }

    private void runCall(JsonNode id, ToolEntry entry, JsonNode arguments, AtomicBoolean cancelled) {
        ToolResult result;
        try {
            result = toResult(entry.handler().call(arguments));
        } catch (ToolException e) {
            result = ToolResult.error(e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (InterruptedException e) {
            result = ToolResult.error("the call was interrupted");
        } catch (Exception | StackOverflowError e) {
            log("tool " + entry.tool().name() + " failed: " + e);
            e.printStackTrace(log);
            result = ToolResult.error("tool " + entry.tool().name() + " failed: " + e);
        }
        synchronized (inFlight) {
            inFlight.remove(id);
        }
        if (!cancelled.get()) {
            writer.write(result(id, result.toJson(structured())));
        }
    }

    private static ToolResult toResult(Object value) throws JsonProcessingException {
        if (value instanceof ToolResult result) {
            return result;
        }
        if (value == null) {
            return ToolResult.text("");
        }
        if (value instanceof CharSequence text) {
            return ToolResult.text(text.toString());
        }
        JsonNode node = value instanceof JsonNode json ? json : JSON.valueToTree(value);
        if (node.isObject()) {
            return ToolResult.structured(node);
        }
        return ToolResult.text(JSON.writeValueAsString(node));
    }

    private static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0");
        message.set("id", id);
        message.set("result", result);
        return message;
    }

    private static ObjectNode error(JsonNode id, int code, String text) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0");
        message.set("id", id);
        message.putObject("error").put("code", code).put("message", text);
        return message;
    }

    private void log(String text) {
        log.println("[" + name + "] " + text);
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static String preview(byte[] bytes) {
        String text = new String(bytes, 0, Math.min(bytes.length, 80), java.nio.charset.StandardCharsets.UTF_8);
        return bytes.length > 80 ? text + "..." : text;
    }
}
