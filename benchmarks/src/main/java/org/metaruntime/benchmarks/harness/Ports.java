package org.metaruntime.benchmarks.harness;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/**
 * Loopback ports for the servers a comparison starts. Stateless.
 *
 * <pre>{@code
 * int port = Ports.free(1)[0];
 * // start a server on it, then
 * Ports.await(port, 60);
 * }</pre>
 */
public final class Ports {

    private Ports() {
    }

    /** Distinct free loopback ports (the sockets are held open together, so no port is handed out twice). */
    public static int[] free(int n) throws IOException {
        ServerSocket[] sockets = new ServerSocket[n];
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    /** Waits until something accepts connections on the loopback port. */
    public static void await(int port, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException("nothing listens on port " + port + " after " + seconds + " s");
                }
                Thread.sleep(50);
            }
        }
    }
}
