package org.metaruntime.gateway.internal.serve;

/**
 * One stage of the {@link CallPipeline} before the dispatch: it reads what the stages before it found in the call,
 * adds what it finds, or stops the call by throwing the {@link org.metaruntime.gateway.internal.rpc.RpcException} its
 * caller gets (setting {@link PipelineCall#refusal} when the call is to be recorded as denied or rate-limited).
 */
@FunctionalInterface
interface CallStage {

    void run(PipelineCall call);
}
