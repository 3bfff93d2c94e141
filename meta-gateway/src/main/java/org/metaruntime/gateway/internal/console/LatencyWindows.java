package org.metaruntime.gateway.internal.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.metaruntime.gateway.internal.serve.CallObserver;

/**
 * Each pod's calls of the last hour by minute: how many, and their durations in a log-scale histogram (a percentile is
 * the upper bound of its bucket, within 19 %). Thread-safe; memory is bounded per pod.
 */
final class LatencyWindows implements CallObserver {

    /** Minutes kept. */
    static final int MINUTES = 60;
    private static final int BUCKETS = 128;
    private static final long MINUTE_MS = 60_000;

    /** One minute's figures, with its percentile. */
    record Minute(long startMs, long calls, Double p95Ms) {
    }

    /** Median and 95th percentile in milliseconds, null without calls. */
    record Percentiles(Double p50Ms, Double p95Ms) {
    }

    private final LongSupplier clockMs;
    private final Map<String, Pod> pods = new ConcurrentHashMap<>();

    LatencyWindows(LongSupplier clockMs) {
        this.clockMs = clockMs;
    }

    @Override
    public void completed(String pod, String tool, long nanos, int errorCode) {
        if (pod == null || pod.isEmpty()) {
            return;
        }
        pods.computeIfAbsent(pod, p -> new Pod()).add(clockMs.getAsLong() / MINUTE_MS, bucketOf(nanos));
    }

    /** The last {@code minutes} minutes of {@code pod} (this one included). */
    Percentiles percentiles(String pod, int minutes) {
        Pod p = pods.get(pod);
        if (p == null) {
            return new Percentiles(null, null);
        }
        long[] merged = new long[BUCKETS];
        long now = clockMs.getAsLong() / MINUTE_MS;
        long total = p.merge(now - minutes + 1, now, merged);
        return new Percentiles(percentile(merged, total, 0.50), percentile(merged, total, 0.95));
    }

    /** The last hour of {@code pod}, oldest minute first, one entry per minute. */
    List<Minute> series(String pod) {
        long now = clockMs.getAsLong() / MINUTE_MS;
        Pod p = pods.get(pod);
        List<Minute> out = new ArrayList<>(MINUTES);
        for (long m = now - MINUTES + 1; m <= now; m++) {
            long[] merged = new long[BUCKETS];
            long total = p == null ? 0 : p.merge(m, m, merged);
            out.add(new Minute(m * MINUTE_MS, total, percentile(merged, total, 0.95)));
        }
        return out;
    }

    static int bucketOf(long nanos) {
        double micros = Math.max(0, nanos) / 1000.0;
        return (int) Math.min(BUCKETS - 1, Math.floor(4 * (Math.log(1 + micros) / Math.log(2))));
    }

    /** The upper bound of bucket {@code b} in milliseconds. */
    static double upperMs(int b) {
        return (Math.pow(2, (b + 1) / 4.0) - 1) / 1000.0;
    }

    private static Double percentile(long[] histogram, long total, double q) {
        if (total == 0) {
            return null;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            seen += histogram[b];
            if (seen >= rank) {
                return Math.round(upperMs(b) * 1000) / 1000.0;
            }
        }
        return upperMs(BUCKETS - 1);
    }

    /** One pod's ring of minutes. */
    private static final class Pod {
        private final long[] minute = new long[MINUTES];
        private final long[] count = new long[MINUTES];
        private final long[][] histogram = new long[MINUTES][BUCKETS];

        Pod() {
            java.util.Arrays.fill(minute, -1);
        }

        synchronized void add(long now, int bucket) {
            int slot = (int) Math.floorMod(now, (long) MINUTES);
            if (minute[slot] != now) {
                minute[slot] = now;
                count[slot] = 0;
                java.util.Arrays.fill(histogram[slot], 0);
            }
            count[slot]++;
            histogram[slot][bucket]++;
        }

        synchronized long merge(long from, long to, long[] into) {
            long total = 0;
            for (int slot = 0; slot < MINUTES; slot++) {
                if (minute[slot] >= from && minute[slot] <= to) {
                    total += count[slot];
                    for (int b = 0; b < BUCKETS; b++) {
                        into[b] += histogram[slot][b];
                    }
                }
            }
            return total;
        }
    }
}
