package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class DeadlineTest {

    private final AtomicLong ticker = new AtomicLong(Long.MAX_VALUE - 10);

    @Test
    void aHugeTimeoutIsClampedAndNeverOverflows() {
        Deadline deadline = Deadline.after(Duration.ofDays(365_000), ticker::get);

        assertThat(deadline.timeout()).isEqualTo(Deadline.MAX_TIMEOUT);
        assertThat(deadline.isExpired()).isFalse();
        ticker.addAndGet(TimeUnit.DAYS.toNanos(365));
        assertThat(deadline.remaining()).isEqualTo(Deadline.MAX_TIMEOUT.minusDays(365));
    }

    @Test
    void expiresExactlyAtItsTimeout() {
        Deadline deadline = Deadline.after(Duration.ofNanos(500_000), ticker::get);

        assertThat(deadline.timeoutMs()).isZero();
        ticker.addAndGet(499_999);
        assertThat(deadline.remainingNanos()).isEqualTo(1);
        ticker.incrementAndGet();
        assertThat(deadline.isExpired()).isTrue();
        ticker.addAndGet(1_000_000);
        assertThat(deadline.remaining()).isZero();
    }

    @Test
    void refusesANonPositiveTimeout() {
        assertThatThrownBy(() -> Deadline.after(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Deadline.after(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSubMillisecondTimeoutDoesNotReadZeroMilliseconds() {
        assertThat(new ProcessBoundaryError.Timeout(0).message()).isEqualTo(
                "the process did not answer within its timeout (under 1 ms)");
        assertThat(new ProcessBoundaryError.Timeout(250).message()).isEqualTo(
                "the process did not answer within 250 ms");
    }

    @Test
    void hugeGracesOfTheProcessLayerAreClamped() {
        Duration huge = Duration.ofDays(365_000);
        StopLadder ladder = new StopLadder(huge, huge, huge);
        assertThat(ladder.stdinGrace()).isEqualTo(Deadline.MAX_TIMEOUT);
        assertThat(ladder.total()).isEqualTo(Deadline.MAX_TIMEOUT.multipliedBy(3));
        assertThat(ladder.withoutStdinGrace().stdinGrace()).isZero();
        assertThat(ProcessSpec.builder("m").command("true").exitDrainTimeout(huge).build().exitDrainTimeout())
                .isEqualTo(Deadline.MAX_TIMEOUT);
    }

    @Test
    @Timeout(60)
    void aChildStopsWithHugeGracesWithoutOverflowing(@TempDir java.nio.file.Path tmp) {
        Fixtures fixtures = new Fixtures(tmp);
        Duration huge = Duration.ofDays(365_000);
        try {
            ModuleProcess process = fixtures.start(fixtures.spec("echo", "echo").exitDrainTimeout(huge).build(),
                    new RecordingListener());
            StopReport report = process.stop(new StopLadder(huge, huge, huge));
            assertThat(report.survivors()).isZero();
            assertThat(process.exitFuture().join().requestedByRuntime()).isTrue();
        } finally {
            fixtures.closeAndAssertNoneAlive();
        }
    }
}
