package org.metaruntime.gateway.internal.pipeline;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.metaruntime.gateway.spi.CallListener;
import org.metaruntime.gateway.spi.CallRecord;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands every answered call to the call listeners, in order, on one thread of its own, so that a listener never
 * delays an answer; a listener that throws is logged and the others still hear of the call. Thread-safe.
 */
public final class CallRecorder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CallRecorder.class);

    private final List<CallListener> listeners = new CopyOnWriteArrayList<>();
    private final java.util.Queue<Supplier<CallRecord>> pending = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean draining = new java.util.concurrent.atomic.AtomicBoolean();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(DaemonThreads.named("meta-gateway-call-listeners"));

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

    /**
     * Tells every listener of the record {@code record} makes, later, on the recorder's thread (where the record is
     * made: hashing the arguments costs the answering thread nothing).
     */
    public void record(Supplier<CallRecord> record) {
        if (listeners.isEmpty()) {
            return;
        }
        pending.add(record);
        if (draining.compareAndSet(false, true)) {
            try {
                thread.execute(this::drain);
            } catch (RejectedExecutionException closed) {
                drain();
            }
        }
    }

    /** Delivers the pending records until none is left (one hand-off wakes the thread for a whole burst). */
    private void drain() {
        do {
            Supplier<CallRecord> next;
            while ((next = pending.poll()) != null) {
                deliver(next);
            }
            draining.set(false);
        } while (!pending.isEmpty() && draining.compareAndSet(false, true));
    }

    private void deliver(Supplier<CallRecord> made) {
        CallRecord record;
        try {
            record = made.get();
        } catch (RuntimeException e) {
            log.warn("a call record could not be made: {}", e.toString());
            return;
        }
        for (CallListener listener : listeners) {
            try {
                listener.onCall(record);
            } catch (RuntimeException e) {
                log.warn("call listener {} failed on call {}: {}", listener.getClass().getName(), record.callId(), e.toString());
            }
        }
    }

    /** Delivers the records handed over so far (bounded by 30 s), then stops. */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
                log.warn("call listeners did not finish within 30 s: {} call records not delivered",
                        thread.shutdownNow().size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
