package org.metaruntime.gateway.internal.http;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds, within {@link #BATCH_MILLIS} ms, a client that closed its connection while the gateway owes it an answer or
 * keeps a stream open for it. The HTTP server does not read a connection while a request on it is handled, so
 * without this a closed connection is found only when a write to it fails (seconds later, at the next keep-alive).
 * One thread selects on the sockets of the exchanges being watched: a socket that turns readable with nothing to
 * read has been closed (or reset) by the client; one with bytes to read carries the client's next request, early,
 * and is left alone from then on. The owner of a watch ends it when its exchange ends.
 *
 * <p>Watches and their ends are applied in batches, at most {@link #BATCH_MILLIS} ms after they are asked: an
 * exchange that ends before its batch is never registered, so a short exchange costs no system call and no wake-up
 * of the selecting thread, which wakes once per batch while exchanges come and sleeps when none does. A close that
 * happens before the watch is applied is found when it is (the socket is readable at once). Thread-safe.
 */
public final class ConnectionWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConnectionWatch.class);

    /** What a watch gives its owner: ending it, once the exchange ended. */
    public interface Watch {
        /** Stops watching (idempotent); the close callback does not run after it. */
        void end();
    }

    private static final Watch NONE = () -> { };

    /** The most time between a watch (or its end) being asked and being applied. */
    static final long BATCH_MILLIS = 10;

    private final Selector selector;
    private final Executor executor;
    private final Queue<Runnable> changes = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    /** Whether the selecting thread waits without a bound: only then does a change wake it. */
    private volatile boolean parked;
    private volatile boolean closed;

    /** @param executor runs the close callbacks (they may do more than the selecting thread should) */
    ConnectionWatch(Executor executor) throws IOException {
        this.selector = Selector.open();
        this.executor = executor;
        this.thread = DaemonThreads.thread("meta-gateway-http-disconnects", this::run);
    }

    /** Starts its thread. */
    void start() {
        thread.start();
    }

    /**
     * Watches the connection of {@code request} until the returned watch ends; when the client closes it first,
     * {@code onClosed} runs once (on the executor) and the connection is closed on the server's side too. A connection
     * that is not a plain socket is not watched.
     */
    public Watch watch(Request request, Consumer<Throwable> onClosed) {
        EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
        if (closed || !(endPoint.getTransport() instanceof SocketChannel channel)) {
            return NONE;
        }
        Watched watched = new Watched(endPoint, channel, onClosed);
        change(watched::register);
        return watched;
    }

    /** Queues a change for the next batch; wakes the selecting thread only when it waits without a bound. */
    private void change(Runnable change) {
        changes.add(change);
        if (parked) {
            selector.wakeup();
        }
    }

    private void run() {
        try {
            while (!closed) {
                if (changes.isEmpty()) {
                    park();
                } else {
                    selector.select(BATCH_MILLIS);
                    for (Runnable change; (change = changes.poll()) != null; ) {
                        change.run();
                    }
                }
                for (Iterator<SelectionKey> keys = selector.selectedKeys().iterator(); keys.hasNext(); ) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    if (key.isValid() && key.attachment() instanceof Watched watched) {
                        watched.readable(key);
                    }
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!closed) {
                log.warn("watching HTTP connections for closes stopped: {}", e.toString());
            }
        }
    }

    /** Waits for a watched socket, or for the first change of the next batch. */
    private void park() throws IOException {
        parked = true;
        try {
            if (changes.isEmpty() && !closed) {
                selector.select();
            }
        } finally {
            parked = false;
        }
    }

    /** Stops watching every connection. */
    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        try {
            if (thread.isAlive()) {
                thread.join(1000);
            }
            selector.close();
        } catch (IOException e) {
            log.debug("closing the selector: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One watched connection. Its key is touched on the selecting thread only. */
    private final class Watched implements Watch {
        private final EndPoint endPoint;
        private final SocketChannel channel;
        private final Consumer<Throwable> onClosed;
        private final AtomicBoolean done = new AtomicBoolean();
        private SelectionKey key;

        Watched(EndPoint endPoint, SocketChannel channel, Consumer<Throwable> onClosed) {
            this.endPoint = endPoint;
            this.channel = channel;
            this.onClosed = onClosed;
        }

        void register() {
            if (done.get()) {
                return;
            }
            try {
                SelectionKey previous = channel.keyFor(selector);
                if (previous != null && !previous.isValid()) {
                    // The connection's previous exchange was watched: its cancelled key leaves at the next select.
                    selector.selectNow();
                }
                key = channel.register(selector, SelectionKey.OP_READ, this);
            } catch (ClosedChannelException | CancelledKeyException e) {
                closedByClient(new EofException("the connection is closed"));
            } catch (IOException e) {
                log.debug("watching a connection failed: {}", e.toString());
            }
        }

        void readable(SelectionKey selected) {
            int available;
            try {
                available = channel.socket().getInputStream().available();
            } catch (IOException e) {
                available = 0;
            }
            selected.cancel();
            if (available > 0) {
                log.debug("a client sent its next request before the answer; its connection is no longer watched");
                return;
            }
            closedByClient(new EofException("the client closed the connection"));
        }

        private void closedByClient(Throwable cause) {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            cancelKey();
            Runnable tell = () -> {
                try {
                    onClosed.accept(cause);
                } catch (RuntimeException e) {
                    log.warn("handling a closed connection failed", e);
                } finally {
                    endPoint.close(cause);
                }
            };
            try {
                executor.execute(tell);
            } catch (RejectedExecutionException stopping) {
                tell.run();
            }
        }

        @Override
        public void end() {
            if (done.compareAndSet(false, true)) {
                change(this::cancelKey);
            }
        }

        private void cancelKey() {
            // A later watch of the same connection may have taken the key over.
            if (key != null && key.attachment() == this) {
                key.cancel();
            }
        }
    }
}
