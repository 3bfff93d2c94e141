package org.metaruntime.gateway.internal.serve;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls served, failed and refused per pod; tells the observers of each call. Thread-safe. */
final class PodStats {

    private static final Logger log = LoggerFactory.getLogger(PodStats.class);

    private final Map<String, AtomicLong> served = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> failed = new ConcurrentHashMap<>();
    private final List<CallObserver> observers = new CopyOnWriteArrayList<>();

    void observe(CallObserver observer) {
        observers.add(observer);
    }

    void served(String pod, String tool, long nanos) {
        served.computeIfAbsent(pod, p -> new AtomicLong()).incrementAndGet();
        tell(pod, tool, nanos, 0);
    }

    void failed(String pod, String tool, long nanos, int errorCode) {
        failed.computeIfAbsent(pod, p -> new AtomicLong()).incrementAndGet();
        tell(pod, tool, nanos, errorCode);
    }

    /**
     * A call refused before it reached a pod (unknown tool, arguments that do not fit, a pod-to-pod call that may not
     * be made): counted as failed for its route's pod; with no route (an unknown tool) only the observers are told,
     * with an empty pod and tool.
     */
    void refused(ToolTable.Route route, long nanos, int errorCode) {
        if (route == null) {
            tell("", "", nanos, errorCode);
        } else {
            failed(route.pod(), route.tool(), nanos, errorCode);
        }
    }

    private void tell(String pod, String tool, long nanos, int errorCode) {
        for (CallObserver observer : observers) {
            try {
                observer.completed(pod, tool, nanos, errorCode);
            } catch (RuntimeException e) {
                log.warn("a call observer failed", e);
            }
        }
    }

    long servedOf(String pod) {
        AtomicLong n = served.get(pod);
        return n == null ? 0 : n.get();
    }

    long failedOf(String pod) {
        AtomicLong n = failed.get(pod);
        return n == null ? 0 : n.get();
    }
}
