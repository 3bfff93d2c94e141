package org.metaruntime.spring;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP relay in front of a real HTTP server that records the head (request line and headers) of the first
 * request on each connection, so a test sees which headers a client sent. Bytes are relayed unchanged both ways.
 */
final class RecordingProxy implements AutoCloseable {

    private final ServerSocket listening;
    private final int upstream;
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    RecordingProxy(int upstream) {
        this.upstream = upstream;
        try {
            listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        daemon("recording-proxy", this::accept);
    }

    int port() {
        return listening.getLocalPort();
    }

    /** The heads of the requests that opened each connection so far. */
    List<String> heads() {
        return List.copyOf(heads);
    }

    private void accept() {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), upstream);
                sockets.add(client);
                sockets.add(server);
                daemon("recording-proxy-up", () -> relay(client, server, true));
                daemon("recording-proxy-down", () -> relay(server, client, false));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void relay(Socket from, Socket to, boolean record) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            StringBuilder head = record ? new StringBuilder() : null;
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (head != null) {
                    head.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
                    int end = head.indexOf("\r\n\r\n");
                    if (end >= 0) {
                        heads.add(head.substring(0, end));
                        head = null;
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the other side closed
        } finally {
            close(from);
            close(to);
        }
    }

    private static void daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            listening.close();
        } catch (IOException ignored) {
            // already closed
        }
        sockets.forEach(RecordingProxy::close);
    }
}
