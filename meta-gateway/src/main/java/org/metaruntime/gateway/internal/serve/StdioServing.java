package org.metaruntime.gateway.internal.serve;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.metaruntime.gateway.Serving;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.StdioTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One client over stdio: a reading thread feeding the dispatcher until the input ends. */
public final class StdioServing implements Serving {

    private static final Logger log = LoggerFactory.getLogger(StdioServing.class);

    private final CountDownLatch ended = new CountDownLatch(1);
    private final InputStream in;
    private final Thread reader;

    private StdioServing(GatewayServer server, InputStream in, OutputStream out) {
        this.in = in;
        StdioTransport transport = new StdioTransport(in, out);
        ClientSession session = server.openSession(transport);
        this.reader = new Thread(() -> {
            try {
                transport.run(server.dispatcher(), session);
                log.info("the client closed stdin");
            } catch (IOException e) {
                log.info("stdin ended: {}", e.toString());
            } finally {
                server.closeSession(session);
                ended.countDown();
            }
        }, "meta-gateway-stdin");
        reader.setDaemon(true);
    }

    public static StdioServing start(GatewayServer server, InputStream in, OutputStream out) {
        StdioServing serving = new StdioServing(server, in, out);
        serving.reader.start();
        return serving;
    }

    @Override
    public int port() {
        return 0;
    }

    @Override
    public void awaitEnd() throws InterruptedException {
        ended.await();
    }

    @Override
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            log.debug("closing stdin: {}", e.toString());
        }
        reader.interrupt();
    }
}
