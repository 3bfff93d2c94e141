package org.metaruntime.gateway.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.manifest.PolicyDocument;
import org.metaruntime.gateway.internal.manifest.PolicyProfile;
import org.metaruntime.gateway.internal.manifest.Rate;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.gateway.spi.Principal;

/** Token buckets on a clock the test moves: burst, continuous refill, retry_after_ms, and all-or-nothing takes. */
class RateLimiterTest {

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final Principal alice = new Principal("alice", "tokens", List.of("p"), Map.of());
    private final Principal bob = new Principal("bob", "tokens", List.of("p"), Map.of());

    private RateLimiter limiter(Rate perPrincipal, Rate perTool) {
        PolicyDocument policy = new PolicyDocument(Map.of("p", new PolicyProfile("p", List.of("*"), Set.of(), List.of(), false,
                perPrincipal, perTool), "q", new PolicyProfile("q", List.of("*"), Set.of(), List.of(), false, perPrincipal, perTool)),
                Optional.empty(), List.of());
        return new RateLimiter(new Access(policy, null), now::get);
    }

    @Test
    void aBucketAllowsItsBurstThenRefillsContinuously() {
        RateLimiter limiter = limiter(Rate.parse("10/s", 3L).orElseThrow(), null);
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.take(alice, "p", "a__x")).isEmpty();
        }
        RpcException refused = limiter.take(alice, "p", "a__x").orElseThrow();
        assertThat(refused.code()).isEqualTo(-31001);
        assertThat(refused.data().get("limit").asText()).isEqualTo("principal");
        assertThat(refused.data().get("retry_after_ms").asLong()).isEqualTo(100);
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(99));
        assertThat(limiter.take(alice, "p", "a__x")).isPresent();
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        assertThat(limiter.take(alice, "p", "a__x")).as("a retry after retry_after_ms is not refused").isEmpty();
        assertThat(limiter.take(bob, "p", "a__x")).as("another principal has its own bucket").isEmpty();
        assertThat(limiter.take(alice, "q", "a__x")).as("buckets are keyed by the allowing profile too").isEmpty();
    }

    @Test
    void aRefusedCallTakesNoTokenFromTheOtherBucket() {
        RateLimiter limiter = limiter(Rate.parse("2/min", null).orElseThrow(), Rate.parse("1/h", null).orElseThrow());
        assertThat(limiter.take(alice, "p", "a__x")).isEmpty();
        RpcException tool = limiter.take(alice, "p", "a__x").orElseThrow();
        assertThat(tool.data().get("limit").asText()).isEqualTo("tool");
        assertThat(tool.data().get("tool").asText()).isEqualTo("a__x");
        assertThat(tool.data().get("retry_after_ms").asLong()).isEqualTo(3_600_000L);
        assertThat(limiter.take(alice, "p", "a__y")).as("the refused call took no principal token").isEmpty();
        RpcException principal = limiter.take(alice, "p", "a__z").orElseThrow();
        assertThat(principal.data().get("limit").asText()).isEqualTo("principal");
        assertThat(principal.data().get("retry_after_ms").asLong()).isEqualTo(30_000L);
        assertThat(principal.getMessage()).isEqualTo("rate limit exceeded: principal alice, tool a__z");
    }

    @Test
    void aProfileWithoutLimitsNeverRefuses() {
        RateLimiter limiter = limiter(null, null);
        for (int i = 0; i < 1000; i++) {
            assertThat(limiter.take(alice, "p", "a__x")).isEmpty();
        }
        assertThat(limiter.take(alice, "all", "a__x")).isEmpty();
    }

    @Test
    void ratesParseAsTheFileWritesThem() {
        assertThat(Rate.parse("100/min", 20L)).contains(new Rate(100, java.time.Duration.ofMinutes(1), 20));
        assertThat(Rate.parse("5/h", null).orElseThrow().burst()).isEqualTo(5);
        assertThat(Rate.parse("0/s", null)).isEmpty();
        assertThat(Rate.parse("10/day", null)).isEmpty();
        assertThat(Rate.parse("1.5/s", null)).isEmpty();
    }
}
