package org.metaruntime.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code java-tools}: an example module written in Java, an MCP stdio server built on the MCP Java SDK's
 * server API. The demo starts it as a child JVM:
 * {@code java -cp <classpath> org.metaruntime.examples.JavaToolsServer}.
 *
 * <p>Tools:
 * <ul>
 *   <li>{@code sha256 {text}}: the SHA-256 digest of the text's UTF-8 bytes, as lowercase hex;</li>
 *   <li>{@code stats {numbers}}: count, sum, min, max and mean of a list of numbers, as structured content.</li>
 * </ul>
 * Bad arguments come back as a tool result with {@code isError: true}. An input line that is not a JSON
 * object is skipped and reported on stderr (the SDK's stdio session would stop reading at such a line).
 * When stdin reaches end of file, the requests already read are answered, then the process exits 0. Log
 * output goes to stderr (slf4j-simple), so stdout carries only protocol messages.
 *
 * <p>Not meant to be used as a library: {@link #main(String[])} is the whole program.
 */
public final class JavaToolsServer {

    /** The id the demo gives this module. */
    public static final String MODULE_ID = "java-tools";

    private static final String TEXT_SCHEMA = """
            {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}""";
    private static final String NUMBERS_SCHEMA = """
            {"type": "object", "properties": {"numbers": {"type": "array", "items": {"type": "number"}}},
             "required": ["numbers"]}""";
    private static final String STATS_OUTPUT_SCHEMA = """
            {"type": "object", "properties": {"count": {"type": "integer"}, "sum": {"type": "number"},
             "min": {"type": "number"}, "max": {"type": "number"}, "mean": {"type": "number"}},
             "required": ["count", "sum"]}""";

    /** The longest input line handed to the SDK. */
    private static final int MAX_LINE_BYTES = 16 * 1024 * 1024;
    /** How long end of input waits for the answers to requests already read. */
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(5);

    private JavaToolsServer() {
    }

    /**
     * Serves MCP on stdin/stdout until stdin is closed, then exits with status 0.
     *
     * @param args ignored
     * @throws InterruptedException if interrupted while serving
     */
    public static void main(String[] args) throws InterruptedException {
        ObjectMapper objectMapper = new ObjectMapper();
        McpJsonMapper mapper = new JacksonMcpJsonMapper(objectMapper);
        CountDownLatch stdinClosed = new CountDownLatch(1);
        RequestLedger ledger = new RequestLedger();
        InputStream in = new FilteringInputStream(System.in, objectMapper, ledger, stdinClosed);
        OutputStream out = new AnswerCountingOutputStream(System.out, ledger);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(mapper, in, out);
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo(MODULE_ID, "1.0.0")
                .jsonMapper(mapper)
                .immediateExecution(true)
                .capabilities(ServerCapabilities.builder().tools(false).build())
                .tools(sha256Tool(mapper), statsTool(mapper))
                .build();
        stdinClosed.await();
        server.closeGracefully();
        System.exit(0);
    }

    private static SyncToolSpecification sha256Tool(McpJsonMapper mapper) {
        Tool tool = Tool.builder()
                .name("sha256")
                .description("SHA-256 digest of a text (UTF-8), as lowercase hex.")
                .inputSchema(mapper, TEXT_SCHEMA)
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            Object text = arguments(request).get("text");
            if (!(text instanceof String)) {
                return error("'text' must be a string");
            }
            return CallToolResult.builder().addTextContent(sha256Hex((String) text)).build();
        }).build();
    }

    private static SyncToolSpecification statsTool(McpJsonMapper mapper) {
        Tool tool = Tool.builder()
                .name("stats")
                .description("Count, sum, min, max and mean of a list of numbers.")
                .inputSchema(mapper, NUMBERS_SCHEMA)
                .outputSchema(mapper, STATS_OUTPUT_SCHEMA)
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            Object raw = arguments(request).get("numbers");
            if (!(raw instanceof List)) {
                return error("'numbers' must be an array of numbers");
            }
            List<Double> numbers = new ArrayList<>();
            for (Object item : (List<?>) raw) {
                if (!(item instanceof Number)) {
                    return error("'numbers' must be an array of numbers");
                }
                numbers.add(((Number) item).doubleValue());
            }
            Map<String, Object> stats = stats(numbers);
            String text;
            try {
                text = mapper.writeValueAsString(stats);
            } catch (IOException e) {
                return error("cannot serialise the result: " + e.getMessage());
            }
            return CallToolResult.builder().structuredContent(stats).addTextContent(text).build();
        }).build();
    }

    private static Map<String, Object> stats(List<Double> numbers) {
        Map<String, Object> stats = new LinkedHashMap<>();
        double sum = 0;
        for (double n : numbers) {
            sum += n;
        }
        stats.put("count", numbers.size());
        stats.put("sum", sum);
        if (!numbers.isEmpty()) {
            stats.put("min", numbers.stream().mapToDouble(Double::doubleValue).min().orElseThrow());
            stats.put("max", numbers.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
            stats.put("mean", sum / numbers.size());
        }
        return stats;
    }

    private static Map<String, Object> arguments(CallToolRequest request) {
        return request.arguments() == null ? Map.of() : request.arguments();
    }

    private static CallToolResult error(String message) {
        return CallToolResult.builder().addTextContent(message).isError(true).build();
    }

    private static String sha256Hex(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * Counts the requests read from stdin and the messages written to stdout. This server sends no
     * notifications and no requests of its own, so every line it writes answers one request.
     */
    private static final class RequestLedger {
        private long requests;
        private long answers;

        synchronized void requestRead() {
            requests++;
        }

        synchronized void answerWritten() {
            answers++;
            notifyAll();
        }

        /** Waits until every request read so far has an answer, or {@code limit} has passed. */
        synchronized void awaitAnswered(Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            long left = limit.toNanos();
            while (answers < requests && left > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
                left = deadline - System.nanoTime();
            }
        }
    }

    /**
     * Hands stdin to the SDK one line at a time. It skips (and reports on stderr) a line that is not a
     * JSON object or is longer than {@link #MAX_LINE_BYTES}, because one such line would stop the SDK's
     * stdio session for good; it records each request in the ledger; and at end of input it holds the end
     * back until the requests already read are answered (the SDK's session drops work still in flight
     * once its input ends), then counts the latch down.
     */
    private static final class FilteringInputStream extends InputStream {
        private final InputStream in;
        private final ObjectMapper json;
        private final RequestLedger ledger;
        private final CountDownLatch closed;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private byte[] pending = new byte[0];
        private int position;
        private boolean ended;

        FilteringInputStream(InputStream in, ObjectMapper json, RequestLedger ledger, CountDownLatch closed) {
            this.in = new BufferedInputStream(in);
            this.json = json;
            this.ledger = ledger;
            this.closed = closed;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            while (position >= pending.length) {
                if (ended || !nextLine()) {
                    return -1;
                }
            }
            int n = Math.min(len, pending.length - position);
            System.arraycopy(pending, position, b, off, n);
            position += n;
            return n;
        }

        /** Reads the next line into {@code pending} (empty when skipped); false at end of input. */
        private boolean nextLine() throws IOException {
            line.reset();
            boolean tooLong = false;
            int c;
            try {
                while ((c = in.read()) >= 0 && c != '\n') {
                    if (line.size() < MAX_LINE_BYTES) {
                        line.write(c);
                    } else {
                        tooLong = true;
                    }
                }
            } catch (IOException e) {
                closed.countDown();
                throw e;
            }
            if (c < 0 && line.size() == 0) {
                endOfInput();
                return false;
            }
            pending = new byte[0];
            position = 0;
            if (tooLong) {
                System.err.println(MODULE_ID + ": skipped an input line longer than " + MAX_LINE_BYTES + " bytes");
            } else if (line.toString(StandardCharsets.UTF_8).isBlank()) {
                return true;
            } else {
                accept(line.toByteArray());
            }
            return true;
        }

        private void accept(byte[] bytes) {
            JsonNode message;
            try {
                message = json.readTree(bytes);
            } catch (IOException e) {
                message = null;
            }
            if (message == null || !message.isObject()) {
                System.err.println(MODULE_ID + ": skipped an input line that is not a JSON object");
                return;
            }
            if (message.has("method") && message.has("id")) {
                ledger.requestRead();
            }
            pending = Arrays.copyOf(bytes, bytes.length + 1);
            pending[bytes.length] = '\n';
        }

        private void endOfInput() throws IOException {
            ended = true;
            try {
                ledger.awaitAnswered(DRAIN_LIMIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while answering the last requests");
            } finally {
                closed.countDown();
            }
        }
    }

    /** Counts every line written (each one answers a request, see {@link RequestLedger}). */
    private static final class AnswerCountingOutputStream extends FilterOutputStream {
        private final RequestLedger ledger;

        AnswerCountingOutputStream(OutputStream out, RequestLedger ledger) {
            super(out);
            this.ledger = ledger;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    out.flush();
                    ledger.answerWritten();
                }
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }
    }
}
