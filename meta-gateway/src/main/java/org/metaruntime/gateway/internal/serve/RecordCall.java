package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.LongSupplier;
import org.metaruntime.gateway.internal.manifest.Names;
import org.metaruntime.gateway.internal.pipeline.ArgumentDigest;
import org.metaruntime.gateway.internal.pipeline.ArgumentRedaction;
import org.metaruntime.gateway.internal.pipeline.CallRecorder;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.gateway.spi.CallOutcome;
import org.metaruntime.gateway.spi.CallRecord;
import org.metaruntime.supervisor.internal.Failures;

/**
 * Stage 9: once a call is answered, its outcome, its span's end, the pods' call statistics and one {@link CallRecord}
 * for the call listeners (the audit among them). Never changes the answer. Thread-safe.
 */
final class RecordCall {

    private final PodStats stats;
    private final CallRecorder recorder;
    private final boolean withArguments;
    private final LongSupplier nanoClock;

    /** @param withArguments whether records carry the (redacted) arguments */
    RecordCall(PodStats stats, CallRecorder recorder, boolean withArguments, LongSupplier nanoClock) {
        this.stats = stats;
        this.recorder = recorder;
        this.withArguments = withArguments;
        this.nanoClock = nanoClock;
    }

    /** The call ended with {@code result}, or with {@code error} (an {@link RpcException}, maybe wrapped). */
    void record(PipelineCall call, JsonNode result, Throwable error) {
        long nanos = nanoClock.getAsLong() - call.startNanos;
        RpcException rpc = error == null ? null : rpc(error);
        CallOutcome outcome = outcome(call, result, rpc);
        Integer code = rpc == null || outcome == CallOutcome.CANCELLED ? null : rpc.code();
        boolean own = call.route != null && Names.RESERVED_POD.equals(call.route.pod());
        if (!own) {
            if (call.route == null || call.refusal != null || !call.dispatched) {
                stats.refused(call.route, nanos, rpc == null ? JsonRpc.INTERNAL_ERROR : rpc.code());
            } else if (rpc == null) {
                stats.served(call.route.pod(), call.route.tool(), nanos);
            } else {
                stats.failed(call.route.pod(), call.route.tool(), nanos, rpc.code());
            }
        }
        boolean toolError = result != null && result.path("isError").asBoolean(false);
        if (call.span != null) {
            call.span.end(outcome, code, toolError);
        }
        if (!recorder.active()) {
            return;
        }
        recorder.record(() -> {
            ArgumentDigest digest = ArgumentDigest.of(call.arguments);
            return new CallRecord(call.callId, call.parentCallId(), call.principal, call.profile, call.tool(),
                    call.route == null ? null : call.route.pod(), call.route == null ? null : call.route.tool(),
                    digest.sha256(), digest.bytes(), outcome, code, nanos / 1_000_000, call.chain(),
                    call.span == null ? null : call.span.traceId(), call.span == null ? null : call.span.spanId(),
                    withArguments ? ArgumentRedaction.redact(call.arguments == null ? JsonRpc.NODES.objectNode() : call.arguments) : null);
        });
    }

    private static CallOutcome outcome(PipelineCall call, JsonNode result, RpcException error) {
        if (call.refusal != null) {
            return call.refusal;
        }
        if (call.cancelled) {
            return CallOutcome.CANCELLED;
        }
        if (error != null) {
            return error.code() == JsonRpc.TIMEOUT ? CallOutcome.TIMEOUT : CallOutcome.ERROR;
        }
        return result != null && result.path("isError").asBoolean(false) ? CallOutcome.ERROR : CallOutcome.OK;
    }

    private static RpcException rpc(Throwable error) {
        Throwable cause = Failures.unwrap(error);
        return cause instanceof RpcException rpc ? rpc
                : new RpcException(JsonRpc.INTERNAL_ERROR, "the call failed: " + cause);
    }
}
