package org.metaruntime.gateway.internal.pipeline;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.metaruntime.gateway.internal.manifest.PolicyProfile;
import org.metaruntime.gateway.internal.manifest.Rate;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.gateway.spi.Principal;

/**
 * The token buckets of the profiles' rate limits: one per principal and profile ({@code rateLimit}), one per
 * principal, profile and tool ({@code toolRateLimit}). A bucket starts full and refills continuously; a call takes one
 * token from each bucket of the profile that allowed it, or, when one is empty, none at all and is refused with
 * -31001. Thread-safe.
 */
public final class RateLimiter {

    /** The code of a call refused by a rate limit. */
    public static final int RATE_LIMITED = -31001;

    private final Access access;
    private final LongSupplier nanoClock;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    /** @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime}) */
    public RateLimiter(Access access, LongSupplier nanoClock) {
        this.access = access;
        this.nanoClock = nanoClock;
    }

    /**
     * Takes a token for a call of {@code principal} to {@code outward}, allowed by {@code profile}; empty when the call
     * may go on, else the error its caller gets.
     */
    public Optional<RpcException> take(Principal principal, String profile, String outward) {
        PolicyProfile limits = access.profile(profile).orElse(null);
        if (limits == null || (limits.rateLimit() == null && limits.toolRateLimit() == null)) {
            return Optional.empty();
        }
        String who = Principals.key(principal) + '\u0000' + profile;
        Bucket perPrincipal = limits.rateLimit() == null ? null
                : buckets.computeIfAbsent(who, k -> new Bucket(limits.rateLimit(), nanoClock.getAsLong()));
        Bucket perTool = limits.toolRateLimit() == null ? null
                : buckets.computeIfAbsent(who + '\u0000' + outward, k -> new Bucket(limits.toolRateLimit(), nanoClock.getAsLong()));
        Bucket first = perPrincipal != null ? perPrincipal : perTool;
        Bucket second = perPrincipal != null ? perTool : null;
        synchronized (first) {
            if (second == null) {
                return refusal(first.take(nanoClock.getAsLong()), first == perTool, principal, outward);
            }
            synchronized (second) {
                long now = nanoClock.getAsLong();
                long waitFirst = first.waitNanos(now);
                if (waitFirst > 0) {
                    return refusal(waitFirst, false, principal, outward);
                }
                long waitSecond = second.waitNanos(now);
                if (waitSecond > 0) {
                    return refusal(waitSecond, true, principal, outward);
                }
                first.take(now);
                second.take(now);
                return Optional.empty();
            }
        }
    }

    private static Optional<RpcException> refusal(long waitNanos, boolean tool, Principal principal, String outward) {
        if (waitNanos <= 0) {
            return Optional.empty();
        }
        long ms = Math.max(1, (waitNanos + 999_999) / 1_000_000);
        return Optional.of(new RpcException(RATE_LIMITED, "rate limit exceeded: principal " + principal.name() + ", tool " + outward,
                JsonNodeFactory.instance.objectNode().put("retry_after_ms", ms).put("limit", tool ? "tool" : "principal")
                        .put("tool", outward)));
    }

    /** One bucket; guarded by itself. */
    private static final class Bucket {
        private final double capacity;
        private final double nanosPerToken;
        private double tokens;
        private long at;

        Bucket(Rate rate, long now) {
            this.capacity = rate.burst();
            this.nanosPerToken = rate.nanosPerToken();
            this.tokens = capacity;
            this.at = now;
        }

        private void refill(long now) {
            if (now > at) {
                tokens = Math.min(capacity, tokens + (now - at) / nanosPerToken);
                at = now;
            }
        }

        /** Nanoseconds until it holds a whole token; 0 when it holds one now. */
        long waitNanos(long now) {
            refill(now);
            return tokens >= 1 - 1e-9 ? 0 : (long) Math.ceil((1 - tokens) * nanosPerToken);
        }

        /** Takes a token when it holds one (returns 0), else returns the wait. */
        long take(long now) {
            long wait = waitNanos(now);
            if (wait == 0) {
                tokens = Math.max(0, tokens - 1);
            }
            return wait;
        }
    }
}
