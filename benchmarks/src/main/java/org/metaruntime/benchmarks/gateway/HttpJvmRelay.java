package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * The least a JVM process can cost between a Streamable HTTP client and a stdio MCP server when it reads what it
 * forwards: Jetty (the gateway's HTTP server) takes each POST, the body is parsed into a Jackson tree, its id replaced
 * by the relay's own (so that calls of several sessions never collide), and it is written to the server as one line;
 * the server's stdout is read on one thread, each answer parsed, its id restored, and written as the POST's
 * {@code application/json} body. A notification is answered 202, a DELETE 200; no session, no routing, no
 * validation. {@link GatewayHttpComparison} measures it beside the peers as the floor of an HTTP gateway written in
 * Java in front of a stdio server. Prints {@code listening on http://127.0.0.1:<port>/mcp} when it is ready.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.HttpJvmRelay command [args...]
 * </pre>
 */
public final class HttpJvmRelay extends Handler.Abstract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 1 << 22;

    /** A POST waiting for the server's answer. */
    private record Waiting(JsonNode clientId, Response response, Callback callback) {
    }

    private final OutputStream toServer;
    private final Map<Long, Waiting> waiting = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    private HttpJvmRelay(OutputStream toServer) {
        this.toServer = toServer;
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: HttpJvmRelay command [args...]");
            System.exit(2);
        }
        Process process = new ProcessBuilder(args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        HttpJvmRelay relay = new HttpJvmRelay(process.getOutputStream());
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(relay);
        server.start();
        System.out.println("listening on http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        System.out.flush();
        relay.answer(process.getInputStream());
        server.stop();
        System.exit(process.waitFor());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (HttpMethod.DELETE.is(request.getMethod())) {
            response.setStatus(200);
            callback.succeeded();
            return true;
        }
        if (!HttpMethod.POST.is(request.getMethod())) {
            response.setStatus(405);
            callback.succeeded();
            return true;
        }
        Content.Source.asByteArrayAsync(request, MAX_BODY).whenComplete((body, failure) -> {
            try {
                if (failure != null) {
                    throw failure;
                }
                ObjectNode message = (ObjectNode) JSON.readTree(body);
                JsonNode clientId = message.get("id");
                if (clientId == null) {
                    send(message);
                    response.setStatus(202);
                    callback.succeeded();
                    return;
                }
                long id = ids.incrementAndGet();
                waiting.put(id, new Waiting(clientId, response, callback));
                send(message.put("id", id));
            } catch (Throwable e) {
                callback.failed(e);
            }
        });
        return true;
    }

    private void send(JsonNode message) throws IOException {
        byte[] line = JSON.writeValueAsBytes(message);
        synchronized (toServer) {
            toServer.write(line);
            toServer.write('\n');
            toServer.flush();
        }
    }

    /** Reads the server's answers until its stdout ends, each as the body of the POST that waits for it. */
    private void answer(InputStream fromServer) {
        try {
            JvmRelay.readLines(fromServer, this::deliver);
        } catch (IOException e) {
            System.err.println("relay: " + e.getMessage());
        }
    }

    private void deliver(byte[] line) throws IOException {
        ObjectNode message = (ObjectNode) JSON.readTree(line);
        JsonNode id = message.get("id");
        Waiting w = id == null || !id.canConvertToLong() ? null : waiting.remove(id.asLong());
        if (w == null) {
            return;
        }
        byte[] body = JSON.writeValueAsBytes(message.set("id", w.clientId()));
        w.response().getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        w.response().write(true, ByteBuffer.wrap(body), w.callback());
    }
}
