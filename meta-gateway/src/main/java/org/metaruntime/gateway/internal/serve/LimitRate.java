package org.metaruntime.gateway.internal.serve;

import org.metaruntime.gateway.internal.pipeline.RateLimiter;
import org.metaruntime.gateway.spi.CallOutcome;

/** Stage 5: a token from each bucket of the call's profile, or -31001 taking none. */
final class LimitRate implements CallStage {

    private final RateLimiter limiter;

    LimitRate(RateLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public void run(PipelineCall call) {
        limiter.take(call.principal, call.profile, call.route.outward()).ifPresent(refused -> {
            call.refusal = CallOutcome.RATE_LIMITED;
            throw refused;
        });
    }
}
