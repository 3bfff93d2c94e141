package org.metaruntime.mcp.internal;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.internal.DaemonThreads;

/**
 * The one {@link HttpClient} shared by every open remote MCP connection, with its own daemon threads
 * ({@code meta-mcp-http-N}, created on demand, ended a few seconds after they fall idle): they run the client's work
 * and each request in flight (sent and its answer read on one of them), so there are about as many as requests in
 * flight, reused from one request to the next. It exists only while at
 * least one connection holds a lease: after the last lease is returned its threads end, and the JDK's own selector
 * thread of the client ends once the client is collected. Thread-safe.
 */
public final class SharedHttpClient {

    /** How long establishing a TCP (and TLS) connection may take. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private static HttpClient client;
    private static ThreadPoolExecutor executor;
    private static int leases;

    private SharedHttpClient() {
    }

    /** Takes a lease and returns the shared client; give the lease back with {@link #release()}. */
    public static synchronized HttpClient acquire() {
        if (client == null) {
            executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 2, TimeUnit.SECONDS, new SynchronousQueue<>(),
                    DaemonThreads.numbered("meta-mcp-http-"));
            client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(CONNECT_TIMEOUT)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .executor(executor)
                    .build();
        }
        leases++;
        return client;
    }

    /**
     * The pool of the shared client's threads, on which a holder of a lease sends its requests with the client's
     * blocking {@code send} (the asynchronous send would complete each answer on a thread of the common pool).
     *
     * @throws IllegalStateException when no lease is held
     */
    public static synchronized ExecutorService executor() {
        if (executor == null) {
            throw new IllegalStateException("no lease on the shared HTTP client is held");
        }
        return executor;
    }

    /** Gives a lease back; the client is let go when the last lease is returned. */
    public static synchronized void release() {
        if (leases == 0) {
            return;
        }
        leases--;
        if (leases == 0) {
            executor.shutdown();
            executor = null;
            client = null;
        }
    }

    /** How many leases are held (for tests). */
    public static synchronized int leases() {
        return leases;
    }
}
