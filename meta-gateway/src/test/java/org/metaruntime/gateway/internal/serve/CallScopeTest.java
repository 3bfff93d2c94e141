package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A call's deadline on the gateway's clock of calls: its timeout from when it is sent, never past its bound. */
class CallScopeTest {

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);

    @Test
    void theDeadlineIsTheTimeoutFromWhenTheCallIsSentOnTheGatewaysClock() {
        CallScope scope = new CallScope(List.of("a.echo"), Long.MAX_VALUE, null, null, nanos::get);
        AtomicInteger started = new AtomicInteger();
        scope.onStart(started::incrementAndGet);

        nanos.addAndGet(Duration.ofSeconds(3).toNanos());
        assertThat(scope.start(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(10));
        assertThat(started).hasValue(1);
        nanos.addAndGet(Duration.ofSeconds(4).toNanos());
        assertThat(scope.remainingNanos()).isEqualTo(Duration.ofSeconds(6).toNanos());

        assertThat(scope.restart(Duration.ofSeconds(10))).as("a resumed call has its whole time again")
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(scope.remainingNanos()).isEqualTo(Duration.ofSeconds(10).toNanos());
    }

    @Test
    void aNestedCallsDeadlineIsNeverLaterThanItsBound() {
        CallScope outer = new CallScope(List.of("a.echo"), Long.MAX_VALUE, null, null, nanos::get);
        outer.start(Duration.ofSeconds(5));
        CallScope nested = new CallScope(List.of("a.echo", "b.echo"), outer.deadlineNanos(), null, null, nanos::get);

        nanos.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(nested.start(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(3));
        nanos.addAndGet(Duration.ofSeconds(4).toNanos());
        assertThat(nested.remainingNanos()).isNegative();
        assertThat(outer.remainingNanos()).isEqualTo(nested.remainingNanos());
    }
}
