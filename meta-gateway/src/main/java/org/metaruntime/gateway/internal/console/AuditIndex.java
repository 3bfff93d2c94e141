package org.metaruntime.gateway.internal.console;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.gateway.internal.pipeline.AuditLog;

/**
 * The newest call records of an event log's audit ({@code gateway.call} events), read on demand from where the last
 * read stopped and kept in memory (at most {@link #KEPT}), newest first on request. Thread-safe.
 */
final class AuditIndex {

    /** The most records kept: older ones cannot be paged to. */
    static final int KEPT = 50_000;

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
    private final ArrayList<Call> calls = new ArrayList<>();
    private long afterSeq;

    AuditIndex(EventLog log) {
        this.log = log;
    }

    /** Up to {@code limit} records older than {@code before} (null: the newest) that {@code filter} and {@code sees} match. */
    synchronized Page page(Filter filter, Long before, int limit, Predicate<Call> sees) {
        catchUp();
        List<Call> out = new ArrayList<>();
        int i = calls.size() - 1;
        if (before != null) {
            i = indexBefore(before);
        }
        for (; i >= 0 && out.size() < limit; i--) {
            Call call = calls.get(i);
            if (filter.matches(call) && sees.test(call)) {
                out.add(call);
            }
        }
        Long next = i >= 0 && !out.isEmpty() ? out.get(out.size() - 1).seq() : null;
        return new Page(out, next);
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

    /** Reads what the log holds so far (a gateway's start: its first page need not wait for the whole audit). */
    synchronized void warm() {
        catchUp();
    }

    private void catchUp() {
        while (true) {
            EventPage page = log.query(EventQuery.builder().source(EventEnvelope.SOURCE_MODULE).eventType(AuditLog.EVENT_TYPE)
                    .afterSeq(afterSeq).limit(EventQuery.MAX_LIMIT).build());
            for (LoggedEvent event : page.events()) {
                afterSeq = Math.max(afterSeq, event.seq());
                if (event.envelope().event() instanceof UnifiedEvent.Module module) {
                    calls.add(call(event.seq(), event.envelope().timestampMs(), module.event().payload()));
                }
            }
            if (calls.size() > KEPT) {
                int extra = calls.size() - KEPT;
                calls.subList(0, extra).clear();
            }
            if (page.nextAfterSeq() == null || page.events().size() < EventQuery.MAX_LIMIT) {
                return;
            }
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
