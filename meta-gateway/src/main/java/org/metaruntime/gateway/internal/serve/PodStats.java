package org.metaruntime.gateway.internal.serve;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Calls served and failed per pod. Thread-safe. */
final class PodStats {

    private final Map<String, AtomicLong> served = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> failed = new ConcurrentHashMap<>();

    void served(String pod) {
        served.computeIfAbsent(pod, p -> new AtomicLong()).incrementAndGet();
    }

    void failed(String pod) {
        failed.computeIfAbsent(pod, p -> new AtomicLong()).incrementAndGet();
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
