package org.metaruntime.gateway.internal.serve;

/** Told of every finished {@code tools/call} routed to a pod (metrics). Called on the answering thread: fast, never throws. */
public interface CallObserver {

    /**
     * One call ended.
     *
     * @param errorCode 0 when the pod answered (an {@code isError} result included), else the JSON-RPC error code
     */
    void completed(String pod, String tool, long nanos, int errorCode);
}
