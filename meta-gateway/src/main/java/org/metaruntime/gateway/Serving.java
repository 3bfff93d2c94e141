package org.metaruntime.gateway;

import java.time.Duration;

/**
 * A gateway serving on one transport. Thread-safe.
 *
 * <pre>{@code
 * try (MetaGateway gateway = MetaGateway.builder().manifests(Path.of("manifests")).build()) {
 *     Serving serving = gateway.serveStdio(System.in, System.out);
 *     serving.awaitEnd();          // the client closed its end
 * }                                // every pod is stopped
 * }</pre>
 */
public interface Serving extends AutoCloseable {

    /** The port it listens on; 0 for stdio. */
    int port();

    /** Waits until the transport ends (for stdio: the input closed). */
    void awaitEnd() throws InterruptedException;

    /** Waits at most {@code timeout}; true when it ended. */
    boolean awaitEnd(Duration timeout) throws InterruptedException;

    /** Stops serving on this transport (the gateway's pods keep running until the gateway is closed). */
    @Override
    void close();
}
