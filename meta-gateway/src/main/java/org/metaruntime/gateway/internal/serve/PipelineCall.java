package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.metaruntime.gateway.internal.pipeline.CallSpan;
import org.metaruntime.gateway.internal.pipeline.TraceHeaders;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.spi.CallOutcome;
import org.metaruntime.gateway.spi.Principal;

/**
 * One call on its way through the {@link CallPipeline}: what it came with, and what each stage found. Written by the
 * stages in order on the thread that runs them, then read by the dispatch and the record; not thread-safe.
 */
final class PipelineCall {

    /** A client's {@code tools/call}, or a pod's {@code __mcp_meta_call__}. */
    enum Entry { CLIENT, NESTED }

    final Entry entry;
    final String callId;
    final long startNanos;
    /** The name as the caller wrote it: the outward name, or {@code pod.tool} for nested calls. */
    final String name;
    /** The arguments as received; null when absent. */
    final JsonNode arguments;
    final TraceHeaders incoming;
    /** The client's request; null for nested calls. */
    final Dispatcher.Request request;
    /** The outer call; null for client calls and for a pod's call that belongs to no call. */
    final PodBackend.CallContext outer;
    /** The chain of the callers (empty for a client call). */
    final List<String> callersChain;
    /** The nested call's {@code expect}; null for none. */
    final JsonNode expect;

    Principal principal;
    /** Whether the pod's call could belong to calls of several principals: it then has no profile. */
    boolean unknownPrincipal;
    List<String> profiles = List.of();
    ToolTable.Route route;
    String profile;
    /** The checked arguments ({@code {}} when absent). */
    JsonNode checkedArguments;
    CallSpan span;
    /** How a stage that stopped the call wants it recorded; null: by its error code. */
    CallOutcome refusal;
    /** Whether every stage passed and the call went to its dispatch. */
    boolean dispatched;
    /** Whether the call ended by a cancel (the client's, a disconnect, or its outer call's end). */
    volatile boolean cancelled;

    PipelineCall(Entry entry, String callId, long startNanos, Principal principal, String name, JsonNode arguments,
                 TraceHeaders incoming, Dispatcher.Request request, PodBackend.CallContext outer, List<String> callersChain,
                 JsonNode expect) {
        this.entry = entry;
        this.callId = callId;
        this.startNanos = startNanos;
        this.principal = principal;
        this.name = name;
        this.arguments = arguments;
        this.incoming = incoming;
        this.request = request;
        this.outer = outer;
        this.callersChain = List.copyOf(callersChain);
        this.expect = expect;
    }

    /** The outward name once resolved, else the name as given. */
    String tool() {
        return route == null ? name : route.outward();
    }

    /** The chain the target gets (the callers', this call last), or the callers' when the name resolved to no tool. */
    List<String> chain() {
        if (route == null) {
            return callersChain;
        }
        List<String> chain = new java.util.ArrayList<>(callersChain);
        chain.add(route.chainName());
        return chain;
    }

    /** The outer call's id; null for a client call. */
    String parentCallId() {
        return outer == null ? null : outer.callId();
    }
}
