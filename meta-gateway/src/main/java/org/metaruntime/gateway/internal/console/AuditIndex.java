package org.metaruntime.gateway.internal.console;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.gateway.internal.pipeline.AuditLog;

/**
 * The newest call records of an event log's audit ({@code gateway.call} events), kept in memory (at most
 * {@link #KEPT}) and read newest first: the first read finds the log's newest record, then the history is read
 * backwards a window of sequence numbers at a time, as far as a page needs it or {@link #warm()} gets, and new records
 * forwards from the newest. A first page thus waits for about its own records, not the whole audit. Thread-safe.
 */
final class AuditIndex {

    /** The most records kept: older ones cannot be paged to. */
    static final int KEPT = 50_000;
    /** About how many records one read going back returns: the window of sequence numbers follows their density. */
    static final int READ = 1_000;

    /** One call record as the console shows it. */
    record Call(long seq, long timeMs, String callId, String principal, String profile, String tool, String pod,
                String outcome, Integer errorCode, long durationMs, String traceId) {
    }

    /** A filter on the records; null fields match anything. */
    record Filter(String pod, String tool, String principal, String outcome) {
        boolean matches(Call call) {
            return (pod == null || pod.equals(call.pod())) && (tool == null || tool.equals(call.tool()))
                    && (principal == null || principal.equals(call.principal()))
                    && (outcome == null || outcome.equals(call.outcome()));
        }
    }

    /** A page of records, newest first; {@code before} reads the next older page, null at the end. */
    record Page(List<Call> calls, Long before) {
    }

    private final EventLog log;
    /** Fair: a page waits for at most one window of the history being read, not for all of it. */
    private final ReentrantLock lock = new ReentrantLock(true);
    /** The records read, oldest first: every one from {@link #oldestRead} to {@link #newestSeq}. */
    private final ArrayList<Call> calls = new ArrayList<>();
    private boolean started;
    private long newestSeq;
    private long oldestRead;
    private long window = READ;
    private boolean historyRead;

    AuditIndex(EventLog log) {
        this.log = log;
    }

    /** Up to {@code limit} records older than {@code before} (null: the newest) that {@code filter} and {@code sees} match. */
    Page page(Filter filter, Long before, int limit, Predicate<Call> sees) {
        lock.lock();
        try {
            return pageLocked(filter, before, limit, sees);
        } finally {
            lock.unlock();
        }
    }

    private Page pageLocked(Filter filter, Long before, int limit, Predicate<Call> sees) {
        start();
        catchUp();
        List<Call> out = new ArrayList<>();
        int i = before == null ? calls.size() - 1 : indexBefore(before);
        while (true) {
            for (; i >= 0 && out.size() < limit; i--) {
                Call call = calls.get(i);
                if (filter.matches(call) && sees.test(call)) {
                    out.add(call);
                }
            }
            if (out.size() >= limit || historyRead) {
                break;
            }
            i += readOlder();
        }
        boolean older = i >= 0 || !historyRead;
        Long next = older && !out.isEmpty() ? out.get(out.size() - 1).seq() : null;
        return new Page(out, next);
    }

    /** Reads the rest of the history, one window at a time, letting pages be answered in between. */
    void warm() {
        while (true) {
            lock.lock();
            try {
                start();
                if (historyRead) {
                    return;
                }
                readOlder();
            } finally {
                lock.unlock();
            }
        }
    }

    /** The index of the newest record older than {@code seq}, -1 when none. */
    private int indexBefore(long seq) {
        int low = 0;
        int high = calls.size() - 1;
        int found = -1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (calls.get(mid).seq() < seq) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return found;
    }

    private void start() {
        if (started) {
            return;
        }
        started = true;
        newestSeq = newestRecord();
        oldestRead = newestSeq + 1;
        historyRead = newestSeq == 0;
    }

    /** The sequence number of the newest record, 0 when there is none: one-record reads, galloping then halving. */
    private long newestRecord() {
        long low = firstAfter(0);
        if (low == 0) {
            return 0;
        }
        long step = READ;
        long next;
        while ((next = firstAfter(low + step)) != 0) {
            low = next;
            step *= 2;
        }
        // low is a record and none is after high: the newest is between them
        long high = low + step;
        while (low < high) {
            long mid = low + (high - low) / 2;
            next = firstAfter(mid);
            if (next == 0) {
                high = mid;
            } else {
                low = next;
            }
        }
        return low;
    }

    private long firstAfter(long seq) {
        List<LoggedEvent> first = read(seq, 1).events();
        return first.isEmpty() ? 0 : first.get(0).seq();
    }

    /** Reads the records after {@link #newestSeq}. */
    private void catchUp() {
        while (true) {
            EventPage page = read(newestSeq, EventQuery.MAX_LIMIT);
            for (LoggedEvent event : page.events()) {
                newestSeq = event.seq();
                add(event, calls);
            }
            trim();
            if (page.nextAfterSeq() == null || page.events().size() < EventQuery.MAX_LIMIT) {
                return;
            }
        }
    }

    /**
     * Reads the window of sequence numbers before {@link #oldestRead}, sized to hold about {@link #READ} records as the
     * last one did; returns how many records it put before the others.
     */
    private int readOlder() {
        long high = oldestRead - 1;
        long low = Math.max(0, high - window);
        List<Call> older = new ArrayList<>();
        long after = low;
        boolean more = true;
        while (more) {
            EventPage page = read(after, READ);
            for (LoggedEvent event : page.events()) {
                if (event.seq() > high) {
                    more = false;
                    break;
                }
                after = event.seq();
                add(event, older);
            }
            more &= page.events().size() == READ;
        }
        window = older.size() < READ / 2 ? window * 2 : older.size() > 2 * READ ? Math.max(READ, window / 2) : window;
        oldestRead = low + 1;
        historyRead = low == 0;
        calls.addAll(0, older);
        int added = older.size();
        added -= trim();
        return added;
    }

    /** Drops the oldest records beyond {@link #KEPT}; returns how many. */
    private int trim() {
        int extra = calls.size() - KEPT;
        if (extra <= 0) {
            return 0;
        }
        calls.subList(0, extra).clear();
        historyRead = true;
        return extra;
    }

    private EventPage read(long afterSeq, int limit) {
        return log.query(EventQuery.builder().source(EventEnvelope.SOURCE_MODULE).eventType(AuditLog.EVENT_TYPE)
                .afterSeq(afterSeq).limit(limit).build());
    }

    private static void add(LoggedEvent event, List<Call> to) {
        if (event.envelope().event() instanceof UnifiedEvent.Module module) {
            to.add(call(event.seq(), event.envelope().timestampMs(), module.event().payload()));
        }
    }

    private static Call call(long seq, long timeMs, JsonNode p) {
        return new Call(seq, timeMs, text(p, "call_id"), text(p, "principal"), text(p, "profile"), text(p, "tool"),
                text(p, "pod"), text(p, "outcome"), p.path("error_code").isNumber() ? p.path("error_code").asInt() : null,
                p.path("duration_ms").asLong(), text(p, "trace_id"));
    }

    private static String text(JsonNode payload, String key) {
        JsonNode value = payload.get(key);
        return value == null || value.isNull() ? null : value.asText();
    }
}
