package org.metaruntime.benchmarks.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The least a JVM process in the middle of a stdio MCP connection can cost when it reads what it forwards: it
 * starts the server, then, on one thread per direction, reads each line, parses it into a Jackson tree, writes the
 * tree back as one line and flushes it. No routing, no validation, no futures: {@link GatewayComparison} measures
 * it beside the byte relay ({@code benchmarks/relay/relay.c}) as the floor of a gateway written in Java.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.metaruntime.benchmarks.gateway.JvmRelay command [args...]
 * </pre>
 */
public final class JvmRelay {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JvmRelay() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: JvmRelay command [args...]");
            System.exit(2);
        }
        Process server = new ProcessBuilder(args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Thread toServer = new Thread(() -> pump(System.in, server.getOutputStream()), "relay-to-server");
        toServer.setDaemon(true);
        toServer.start();
        pump(server.getInputStream(), System.out);
        server.destroy();
        System.exit(server.waitFor());
    }

    /** Forwards each line of {@code source} to {@code sink} as parsed and written again, until the source ends. */
    private static void pump(InputStream source, OutputStream sink) {
        try (sink) {
            readLines(source, line -> {
                sink.write(JSON.writeValueAsBytes(JSON.readTree(line)));
                sink.write('\n');
                sink.flush();
            });
        } catch (IOException e) {
            System.err.println("relay: " + e.getMessage());
        }
    }

    /** What is done with one line. */
    interface LineAction {
        void accept(byte[] line) throws IOException;
    }

    /** Calls {@code action} with each line of {@code source} (without its {@code \n}) until the source ends. */
    static void readLines(InputStream source, LineAction action) throws IOException {
        byte[] chunk = new byte[1 << 16];
        ByteArrayOutputStream line = new ByteArrayOutputStream(1 << 12);
        int n;
        while ((n = source.read(chunk)) >= 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (chunk[i] == '\n') {
                    line.write(chunk, start, i - start);
                    action.accept(line.toByteArray());
                    line.reset();
                    start = i + 1;
                }
            }
            line.write(chunk, start, n - start);
        }
    }
}
