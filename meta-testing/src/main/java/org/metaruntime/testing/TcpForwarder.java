package org.metaruntime.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP port that forwards every connection to another address: a database that "comes back" when the
 * forwarder starts on the port a log was opened with. Daemon threads; {@link #close()} ends every connection.
 */
public final class TcpForwarder implements AutoCloseable {

    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private TcpForwarder(ServerSocket server, String targetHost, int targetPort) {
        this.server = server;
        Thread acceptor = new Thread(() -> accept(targetHost, targetPort), "test-tcp-forwarder");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Starts forwarding loopback {@code port} to {@code targetHost:targetPort}. */
    public static TcpForwarder start(int port, String targetHost, int targetPort) throws IOException {
        return new TcpForwarder(new ServerSocket(port, 50, InetAddress.getLoopbackAddress()), targetHost, targetPort);
    }

    private void accept(String targetHost, int targetPort) {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket target = new Socket(targetHost, targetPort);
                client.setTcpNoDelay(true);
                target.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(target);
                pump(client, target);
                pump(target, client);
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void pump(Socket from, Socket to) throws IOException {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // The other side closed.
            } finally {
                try {
                    to.shutdownOutput();
                } catch (IOException ignored) {
                    // Already closed.
                }
            }
        }, "test-tcp-forwarder-pump");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
