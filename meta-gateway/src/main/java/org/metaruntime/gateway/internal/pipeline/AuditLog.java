package org.metaruntime.gateway.internal.pipeline;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.function.LongSupplier;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.spi.CallListener;
import org.metaruntime.gateway.spi.CallRecord;

/**
 * Appends one {@code gateway.call} module event per call to an event log (whose writer commits in batches). The
 * module is the call's pod, {@code meta} for the gateway's own tool and for names that resolve to no tool.
 * Thread-safe.
 */
public final class AuditLog implements CallListener {

    /** The event type of a call's record. */
    public static final String EVENT_TYPE = "gateway.call";
    /** The module of the gateway's own tool and of names that resolve to no tool. */
    public static final String GATEWAY_MODULE = "meta";
    /** Room for the payload's 16 keys without a resize. */
    private static final int PAYLOAD_CAPACITY = 32;

    private final EventLog log;
    private final LongSupplier clockMs;
    /** Tells this process's event ids from another's (call ids start again at each start). */
    private final String run = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());

    public AuditLog(EventLog log, LongSupplier clockMs) {
        this.log = log;
        this.clockMs = clockMs;
    }

    @Override
    public void onCall(CallRecord record) {
        log.append(EventEnvelope.module("evt-gateway-call-" + run + "-" + record.callId(), clockMs.getAsLong(),
                record.pod() == null ? GATEWAY_MODULE : record.pod(), EVENT_TYPE, payload(record)));
    }

    /** The event's payload: every key always present, {@code arguments} only when the record carries them. */
    public static ObjectNode payload(CallRecord r) {
        ObjectNode p = new ObjectNode(JsonNodeFactory.instance, new LinkedHashMap<>(PAYLOAD_CAPACITY));
        p.put("call_id", r.callId());
        p.put("parent_call_id", r.parentCallId());
        p.put("principal", r.principal().name());
        p.put("auth", r.principal().auth());
        p.put("profile", r.profile());
        p.put("tool", r.tool());
        p.put("pod", r.pod());
        p.put("pod_tool", r.podTool());
        p.put("args_sha256", r.argsSha256());
        p.put("args_bytes", r.argsBytes());
        p.put("outcome", r.outcome().wireName());
        if (r.errorCode() == null) {
            p.putNull("error_code");
        } else {
            p.put("error_code", r.errorCode());
        }
        p.put("duration_ms", r.durationMs());
        ArrayNode chain = p.putArray("chain");
        r.chain().forEach(chain::add);
        p.put("trace_id", r.traceId());
        if (r.arguments() != null) {
            p.set("arguments", r.arguments());
        }
        return p;
    }
}
