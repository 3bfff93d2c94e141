package org.metaruntime.gateway.internal.pipeline;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.metaruntime.gateway.spi.CallListener;
import org.metaruntime.gateway.spi.CallRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands every answered call to the call listeners, in order, on one thread of its own, so that a listener never
 * delays an answer; a listener that throws is logged and the others still hear of the call. Thread-safe.
 */
public final class CallRecorder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CallRecorder.class);

    private final List<CallListener> listeners = new CopyOnWriteArrayList<>();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "meta-gateway-call-listeners");
        t.setDaemon(true);
        return t;
    });

    public CallRecorder(List<CallListener> listeners) {
        this.listeners.addAll(listeners);
    }

    /** Adds a listener. */
    public void add(CallListener listener) {
        listeners.add(listener);
    }

    /** Whether any listener hears of calls (else records need not be made). */
    public boolean active() {
        return !listeners.isEmpty();
    }

    /** Tells every listener of {@code record}, later, on the recorder's thread. */
    public void record(CallRecord record) {
        if (listeners.isEmpty()) {
            return;
        }
        try {
            thread.execute(() -> deliver(record));
        } catch (RejectedExecutionException closed) {
            deliver(record);
        }
    }

    private void deliver(CallRecord record) {
        for (CallListener listener : listeners) {
            try {
                listener.onCall(record);
            } catch (RuntimeException e) {
                log.warn("call listener {} failed on call {}: {}", listener.getClass().getName(), record.callId(), e.toString());
            }
        }
    }

    /** Delivers the records handed over so far (bounded by a few seconds), then stops. */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("call listeners did not finish within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
