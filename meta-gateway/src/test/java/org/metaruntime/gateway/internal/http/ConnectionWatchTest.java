package org.metaruntime.gateway.internal.http;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A watched connection: its client closing it while an exchange is owed an answer is found, also after earlier
 * exchanges on the same connection were watched and ended (their watches are never told).
 */
@Timeout(60)
class ConnectionWatchTest {

    private final QueuedThreadPool threads = new QueuedThreadPool();
    private final CompletableFuture<Throwable> earlierTold = new CompletableFuture<>();
    private final CompletableFuture<Void> lastStarted = new CompletableFuture<>();
    private final CompletableFuture<Throwable> lastTold = new CompletableFuture<>();
    private ConnectionWatch watches;
    private Server server;
    private ServerConnector connector;

    @BeforeEach
    void start() throws Exception {
        threads.setDaemon(true);
        server = new Server(threads);
        connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                if (request.getHttpURI().getPath().equals("/answered")) {
                    ConnectionWatch.Watch watch = watches.watch(request, earlierTold::complete);
                    watch.end();
                    Exchanges.empty(response, callback, 200);
                } else {
                    watches.watch(request, cause -> {
                        lastTold.complete(cause);
                        callback.failed(cause);
                    });
                    lastStarted.complete(null);
                }
                return true;
            }
        });
        server.start();
        watches = new ConnectionWatch(threads);
        watches.start();
    }

    @AfterEach
    void stop() throws Exception {
        watches.close();
        server.stop();
    }

    @Test
    void aClientClosingItsConnectionIsFoundAfterEarlierWatchedExchanges() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", connector.getLocalPort())) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            for (int i = 0; i < 200; i++) {
                out.write("GET /answered HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(US_ASCII));
                out.flush();
                assertThat(readHead(in)).startsWith("HTTP/1.1 200");
            }
            out.write("GET /owed HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(US_ASCII));
            out.flush();
            lastStarted.get(30, TimeUnit.SECONDS);
        }
        assertThat(lastTold.get(30, TimeUnit.SECONDS)).isInstanceOf(EofException.class);
        assertThat(earlierTold).isNotDone();
    }

    /** Reads one response head (the answers here have no body). */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed after " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }
}
