package org.metaruntime.gateway.internal.serve;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.StdioTransport;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client over stdio: a reading thread feeding the dispatcher until the input ends, or until {@link #close()}
 * (which ends the session at once, even while the reading thread is still blocked on an input it cannot interrupt).
 */
public final class StdioServing extends ServingBase {

    private static final Logger log = LoggerFactory.getLogger(StdioServing.class);

    private final GatewayServer server;
    private final InputStream in;
    private final ClientSession session;
    private final Thread reader;

    private StdioServing(GatewayServer server, InputStream in, OutputStream out) {
        this.server = server;
        this.in = in;
        StdioTransport transport = new StdioTransport(in, out);
        this.session = server.openSession(transport);
        this.reader = DaemonThreads.thread("meta-gateway-stdin", () -> {
            try {
                transport.run(server.dispatcher(), session);
                log.info("the client closed stdin");
            } catch (IOException e) {
                log.info("stdin ended: {}", e.toString());
            } finally {
                server.closeSession(session);
                ended();
            }
        });
    }

    /** Serves {@code server} to the client on {@code in} / {@code out}, on a thread of its own. */
    public static StdioServing start(GatewayServer server, InputStream in, OutputStream out) {
        try {
            return start(new StdioServing(server, in, out));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void begin() {
        reader.start();
    }

    @Override
    protected void release() {
        close();
    }

    @Override
    public int port() {
        return 0;
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            log.debug("closing stdin: {}", e.toString());
        }
        reader.interrupt();
        server.closeSession(session);
        ended();
    }
}
