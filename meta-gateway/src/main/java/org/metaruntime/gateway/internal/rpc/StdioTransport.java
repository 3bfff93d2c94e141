package org.metaruntime.gateway.internal.rpc;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.metaruntime.supervisor.internal.ReadBursts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP's stdio transport for one client: newline-delimited JSON-RPC messages, UTF-8, on the given streams.
 * The reading thread hands each line to the dispatcher; any thread may send: a message is written as UTF-8 straight
 * into one reused buffer and goes out, with its newline, in one write, and the messages sent during a
 * {@link ReadBursts burst} of the sending thread (the answers to the lines of one read of a pod's stdout) go out
 * together at its end. A line longer than {@link #MAX_LINE_BYTES} is skipped with a -32700 error. {@link #run()}
 * returns when the input ends.
 */
public final class StdioTransport implements Outbound {

    private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

    /** The longest message accepted from the client. */
    public static final int MAX_LINE_BYTES = 64 * 1024 * 1024;

    /** A message's buffer grown beyond this is dropped after its write, so that one large answer is not kept. */
    private static final int KEPT_BUFFER_BYTES = 256 * 1024;

    /** Non-ASCII text as is, characters beyond the BMP included (never as {@code \\uXXXX} escapes). */
    private static final ObjectWriter WRITER = JsonRpc.MAPPER.writer()
            .with(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8);

    private final InputStream in;
    private final OutputStream out;
    private final Object writeLock = new Object();
    private final Runnable flush = this::flush;
    private Pending pending = new Pending(); // guarded by writeLock
    private volatile boolean broken;

    /** The bytes of the messages not yet written. */
    private static final class Pending extends ByteArrayOutputStream {
        Pending() {
            super(1024);
        }

        /** Drops what was added after the first {@code size} bytes. */
        void truncate(int size) {
            count = size;
        }
    }

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
        synchronized (writeLock) {
            if (broken) {
                return;
            }
            int before = pending.size();
            try {
                WRITER.writeValue(pending, message);
            } catch (IOException | RuntimeException e) {
                pending.truncate(before);
                throw new IllegalStateException("cannot serialise a JSON tree", e);
            }
            pending.write('\n');
            if (ReadBursts.atEnd(flush)) {
                return;
            }
            flushPending();
        }
    }

    /** Writes what waits, in one write. */
    private void flush() {
        synchronized (writeLock) {
            flushPending();
        }
    }

    private void flushPending() {
        if (pending.size() == 0 || broken) {
            return;
        }
        try {
            pending.writeTo(out);
            out.flush();
        } catch (IOException e) {
            broken = true;
            log.warn("cannot write to the client: {}", e.toString());
        } finally {
            if (pending.size() > KEPT_BUFFER_BYTES) {
                pending = new Pending();
            } else {
                pending.reset();
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
