package org.metaruntime.module;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.metaruntime.module.internal.McpSession;
import org.metaruntime.module.internal.SessionLimits;

/**
 * A module's MCP server over stdio: newline-delimited JSON-RPC 2.0 on stdin and stdout, UTF-8 whatever the
 * platform charset. It answers {@code initialize}, {@code ping}, {@code tools/list} and {@code tools/call}, and
 * honours {@code notifications/cancelled}.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *     ModuleServer.builder("text-tools")
 *             .tool("word_count", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}",
 *                     arguments -> Map.of("words", arguments.path("text").asText().split("\\s+").length))
 *             .build()
 *             .serve();
 * }
 * }</pre>
 *
 * <p><b>Behaviour.</b> Tool calls run on a pool of worker threads ({@link Builder#maxConcurrentCalls(int)}, default
 * 64), so many calls can be in flight at once and each answer carries its request's id; calls beyond the pool wait
 * in a bounded queue, and a call beyond that gets a JSON-RPC error at once rather than being lost. An input line
 * that is not JSON, or is longer than {@link Builder#maxLineBytes(int)}, is skipped and reported on stderr; the
 * loop goes on. At end of input, the calls already read are finished and answered (for at most
 * {@link Builder#drainTimeout(Duration)}), then {@code serve} returns. Diagnostics go to stderr only; during
 * {@link #serve()}, {@code System.out} is pointed at stderr so that a stray {@code println} cannot corrupt the
 * protocol.
 *
 * <p>An instance is immutable and thread-safe; each {@code serve} call runs one session on the calling thread.
 */
public final class ModuleServer {

    private final String name;
    private final String version;
    private final Map<String, Registered> tools;
    private final SessionLimits limits;
    private final List<String> order;

    private ModuleServer(Builder builder) {
        this.name = builder.name;
        this.version = builder.version;
        this.tools = Map.copyOf(builder.tools);
        this.limits = new SessionLimits(builder.maxConcurrentCalls, builder.maxQueuedCalls, builder.maxLineBytes,
                builder.drainTimeout);
        this.order = List.copyOf(builder.tools.keySet());
    }

    /** A builder for a server called {@code name} (its {@code serverInfo.name}). */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** The server's name. */
    public String name() {
        return name;
    }

    /** Its tools, in the order they were added. */
    public List<Tool> tools() {
        return order.stream().map(n -> tools.get(n).tool()).toList();
    }

    /**
     * Serves on the process's stdin and stdout until stdin ends and every call read is answered. While it runs,
     * {@code System.out} writes to stderr.
     */
    public void serve() {
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        PrintStream previous = System.out;
        System.setOut(err);
        try {
            serve(System.in, stdout, err);
        } finally {
            System.setOut(previous);
        }
    }

    /**
     * Serves on {@code in} and {@code out} until {@code in} ends and every call read is answered, logging to
     * {@code log}. The streams are not closed.
     */
    public void serve(InputStream in, OutputStream out, PrintStream log) {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(log, "log");
        Map<String, McpSession.ToolEntry> entries = new LinkedHashMap<>();
        for (String toolName : order) {
            Registered registered = tools.get(toolName);
            entries.put(toolName, new McpSession.ToolEntry(registered.tool(), registered.handler()));
        }
        new McpSession(name, version, entries, limits, out, log).run(in);
    }

    private record Registered(Tool tool, ToolHandler handler) {
    }

    /** Builds a {@link ModuleServer}. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private String version = "1.0.0";
        private final Map<String, Registered> tools = new LinkedHashMap<>();
        private int maxConcurrentCalls = 64;
        private int maxQueuedCalls = 4096;
        private int maxLineBytes = 16 * 1024 * 1024;
        private Duration drainTimeout = Duration.ofSeconds(60);

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("the server name must not be blank");
            }
            this.name = name;
        }

        /** Its {@code serverInfo.version} (default {@code 1.0.0}). */
        public Builder version(String version) {
            this.version = Objects.requireNonNull(version, "version");
            return this;
        }

        /** Adds a tool whose input schema is JSON text. */
        public Builder tool(String name, String inputSchema, ToolHandler handler) {
            return tool(Tool.of(name, inputSchema), handler);
        }

        /** Adds a tool whose input schema is a JSON object. */
        public Builder tool(String name, JsonNode inputSchema, ToolHandler handler) {
            return tool(Tool.of(name, inputSchema), handler);
        }

        /** Adds a tool (with its description and output schema). */
        public Builder tool(Tool tool, ToolHandler handler) {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(handler, "handler");
            if (tools.containsKey(tool.name())) {
                throw new IllegalArgumentException("tool " + tool.name() + " is added twice");
            }
            tools.put(tool.name(), new Registered(tool, handler));
            return this;
        }

        /** How many tool calls run at once (default 64, at least 1). */
        public Builder maxConcurrentCalls(int calls) {
            if (calls < 1) {
                throw new IllegalArgumentException("maxConcurrentCalls must be at least 1, got " + calls);
            }
            this.maxConcurrentCalls = calls;
            return this;
        }

        /** How many calls may wait for a worker (default 4096, at least 0); a call beyond gets an error at once. */
        public Builder maxQueuedCalls(int calls) {
            if (calls < 0) {
                throw new IllegalArgumentException("maxQueuedCalls must not be negative, got " + calls);
            }
            this.maxQueuedCalls = calls;
            return this;
        }

        /** The longest input line read (default 16 MiB, at least 1 KiB); a longer one is skipped. */
        public Builder maxLineBytes(int bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("maxLineBytes must be at least 1024, got " + bytes);
            }
            this.maxLineBytes = bytes;
            return this;
        }

        /** How long end of input waits for the calls in flight (default 60 s; zero: not at all). */
        public Builder drainTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("drainTimeout must not be negative, got " + timeout);
            }
            this.drainTimeout = timeout;
            return this;
        }

        /** The server. */
        public ModuleServer build() {
            if (tools.isEmpty()) {
                throw new IllegalStateException("module " + name + " has no tool");
            }
            return new ModuleServer(this);
        }
    }
}
