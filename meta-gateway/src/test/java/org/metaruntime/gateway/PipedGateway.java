package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * An embedded gateway served over piped streams in this JVM ({@link MetaGateway#serveStdio}), and the client end of
 * those pipes. {@link #close()} closes the client's output, checks that the session then ends, and closes the gateway.
 */
final class PipedGateway implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final MetaGateway gateway;
    private final Serving serving;
    private final OutputStream toGateway;
    private final BufferedReader fromGateway;
    private final boolean ownsGateway;
    private int ids;

    private PipedGateway(MetaGateway gateway, Serving serving, OutputStream toGateway, BufferedReader fromGateway,
                         boolean ownsGateway) {
        this.ownsGateway = ownsGateway;
        this.gateway = gateway;
        this.serving = serving;
        this.toGateway = toGateway;
        this.fromGateway = fromGateway;
    }

    /** Serves {@code gateway} over new pipes. */
    static PipedGateway serve(MetaGateway gateway) throws IOException {
        return serve(gateway, true);
    }

    /** Serves {@code gateway} over new pipes besides what it serves already; {@link #close()} leaves it running. */
    static PipedGateway serveOnly(MetaGateway gateway) throws IOException {
        return serve(gateway, false);
    }

    private static PipedGateway serve(MetaGateway gateway, boolean owns) throws IOException {
        PipedInputStream in = new PipedInputStream(1 << 20);
        OutputStream toGateway = new PipedOutputStream(in);
        PipedInputStream out = new PipedInputStream(1 << 20);
        Serving serving = gateway.serveStdio(in, new PipedOutputStream(out));
        return new PipedGateway(gateway, serving, toGateway,
                new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8)), owns);
    }

    MetaGateway gateway() {
        return gateway;
    }

    /** Writes {@code line} and a newline to the gateway. */
    void send(String line) throws IOException {
        toGateway.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toGateway.flush();
    }

    /** The gateway's next line; fails when its output ended. */
    String readLine() throws IOException {
        String line = fromGateway.readLine();
        assertThat(line).as("the gateway's output ended").isNotNull();
        return line;
    }

    /** Sends {@code line} and reads the next line as JSON. */
    JsonNode exchange(String line) throws IOException {
        send(line);
        return JSON.readTree(readLine());
    }

    /** Sends {@code initialize} as a client of the newest revision would. */
    JsonNode initialize() throws IOException {
        return request("initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
    }

    /** Sends a request and reads lines until its answer (skipping notifications and the gateway's own requests). */
    JsonNode request(String method, String paramsJson) throws IOException {
        int id = ++ids;
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + paramsJson + "}");
        while (true) {
            JsonNode message = JSON.readTree(readLine());
            if (message.path("id").asInt(-1) == id && !message.has("method")) {
                return message;
            }
        }
    }

    /** Calls {@code tool} with {@code argumentsJson}; returns the whole answer ({@code result} or {@code error}). */
    JsonNode call(String tool, String argumentsJson) throws IOException {
        return request("tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + argumentsJson + "}");
    }

    @Override
    public void close() throws Exception {
        toGateway.close();
        assertThat(serving.awaitEnd(Duration.ofSeconds(20))).as("the session ends when its input closes").isTrue();
        if (ownsGateway) {
            gateway.close();
        }
    }
}
