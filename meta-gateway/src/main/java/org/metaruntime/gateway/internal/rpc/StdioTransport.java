package org.metaruntime.gateway.internal.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP's stdio transport for one client: newline-delimited JSON-RPC messages, UTF-8, on the given streams.
 * The reading thread hands each line to the dispatcher; any thread may send. A line longer than
 * {@link #MAX_LINE_BYTES} is skipped with a -32700 error. {@link #run()} returns when the input ends.
 */
public final class StdioTransport implements Outbound {

    private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

    /** The longest message accepted from the client. */
    public static final int MAX_LINE_BYTES = 64 * 1024 * 1024;

    private final InputStream in;
    private final OutputStream out;
    private final Object writeLock = new Object();
    private volatile boolean broken;

    public StdioTransport(InputStream in, OutputStream out) {
        this.in = in;
        this.out = out;
    }

    @Override
    public void send(ObjectNode message) {
        write(message);
    }

    /** The answers to a batch: one line holding the array. */
    @Override
    public void sendBatch(ArrayNode messages) {
        write(messages);
    }

    private void write(JsonNode message) {
        byte[] bytes = (JsonRpc.write(message) + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (writeLock) {
            if (broken) {
                return;
            }
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                broken = true;
                log.warn("cannot write to the client: {}", e.toString());
            }
        }
    }

    /** Reads lines until the input ends, handing each to {@code session} through {@code dispatcher}. */
    public void run(Dispatcher dispatcher, ClientSession session) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        ByteArrayOutputStream line = new ByteArrayOutputStream(8192);
        boolean skipping = false;
        int n;
        while ((n = in.read(buffer)) >= 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (buffer[i] != '\n') {
                    continue;
                }
                if (!skipping) {
                    line.write(buffer, start, i - start);
                    deliver(dispatcher, session, line);
                }
                skipping = false;
                line.reset();
                start = i + 1;
            }
            if (!skipping) {
                line.write(buffer, start, n - start);
                if (line.size() > MAX_LINE_BYTES) {
                    skipping = true;
                    line.reset();
                    session.send(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "a message was over " + MAX_LINE_BYTES + " bytes and was skipped", null));
                }
            }
        }
        if (!skipping && line.size() > 0) {
            deliver(dispatcher, session, line);
        }
    }

    private static void deliver(Dispatcher dispatcher, ClientSession session, ByteArrayOutputStream line) {
        String text = line.toString(StandardCharsets.UTF_8);
        if (text.endsWith("\r")) {
            text = text.substring(0, text.length() - 1);
        }
        try {
            dispatcher.onLine(session, text);
        } catch (RuntimeException e) {
            log.error("a message could not be handled", e);
        }
    }
}
