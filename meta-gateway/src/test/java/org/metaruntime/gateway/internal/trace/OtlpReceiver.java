package org.metaruntime.gateway.internal.trace;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** An OTLP/HTTP trace receiver on 127.0.0.1: decodes every {@code ExportTraceServiceRequest} POSTed to /v1/traces. */
public final class OtlpReceiver implements AutoCloseable {

    /** One request as received. */
    public record Received(String path, String contentType, Map<String, List<String>> headers, ExportTraceServiceRequest request) {
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile int status = 200;

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                byte[] bytes = body.readAllBytes();
                if (status == 200) {
                    received.add(new Received(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Content-Type"),
                            Map.copyOf(exchange.getRequestHeaders()), ExportTraceServiceRequest.parseFrom(bytes)));
                }
                byte[] answer = status == 200 ? ExportTraceServiceResponse.getDefaultInstance().toByteArray() : new byte[0];
                exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(status, answer.length == 0 ? -1 : answer.length);
                exchange.getResponseBody().write(answer);
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    /** The base URL ({@code http://127.0.0.1:port}). */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answers every later request with {@code status} (and keeps none but 200s). */
    public void answer(int status) {
        this.status = status;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
