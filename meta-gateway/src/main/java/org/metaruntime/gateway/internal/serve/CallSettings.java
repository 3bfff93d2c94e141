package org.metaruntime.gateway.internal.serve;

import java.util.List;
import java.util.function.LongSupplier;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.internal.pipeline.CallTracer;
import org.metaruntime.gateway.internal.pipeline.DefinitionCheck;
import org.metaruntime.gateway.internal.pipeline.RandomTracer;
import org.metaruntime.gateway.spi.CallListener;

/**
 * What the call pipeline applies besides the pods: who may call what ({@link Access}, with its rate limits), the
 * tracer, the definition pins, the call listeners (the audit among them), whether records carry the arguments, and
 * the monotonic clock of durations and buckets.
 */
public record CallSettings(Access access, CallTracer tracer, DefinitionCheck definitions, List<CallListener> listeners,
                           boolean auditArguments, LongSupplier nanoClock) {

    public CallSettings {
        listeners = List.copyOf(listeners);
    }

    /** No policy, random trace ids, no pins, no listener. */
    public static CallSettings defaults() {
        return new CallSettings(Access.ALL, new RandomTracer(), DefinitionCheck.NONE, List.of(), false, System::nanoTime);
    }

    public CallSettings withAccess(Access next) {
        return new CallSettings(next, tracer, definitions, listeners, auditArguments, nanoClock);
    }

    public CallSettings withListeners(List<CallListener> next, boolean withArguments) {
        return new CallSettings(access, tracer, definitions, next, withArguments, nanoClock);
    }

    public CallSettings withTracer(CallTracer next) {
        return new CallSettings(access, next, definitions, listeners, auditArguments, nanoClock);
    }

    public CallSettings withDefinitions(DefinitionCheck next) {
        return new CallSettings(access, tracer, next, listeners, auditArguments, nanoClock);
    }
}
