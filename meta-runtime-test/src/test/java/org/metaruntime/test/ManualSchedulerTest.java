package org.metaruntime.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.Scheduler;

class ManualSchedulerTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aClockStartsAtNewYear2026InUtcAndNeverGoesBack() {
        ManualClock clock = new ManualClock();
        assertThat(clock.instant()).isEqualTo(START);
        assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
        clock.advance(Duration.ofMillis(1500));
        assertThat(clock.millis()).isEqualTo(START.toEpochMilli() + 1500);
        assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThat(new ManualClock(Instant.EPOCH).instant()).isEqualTo(Instant.EPOCH);
    }

    @Test
    void tasksNeverRunOnTheirOwnAndAdvanceRunsThemInDueOrderAsTheClockReachesThem() {
        ManualScheduler scheduler = new ManualScheduler();
        Scheduler asScheduler = scheduler;
        List<String> ran = new ArrayList<>();
        asScheduler.schedule(() -> ran.add("b@200 " + scheduler.clock().instant()), Duration.ofMillis(200));
        asScheduler.schedule(() -> ran.add("a@100 " + scheduler.clock().instant()), Duration.ofMillis(100));
        asScheduler.schedule(() -> ran.add("c@100 " + scheduler.clock().instant()), Duration.ofMillis(100));
        Scheduler.Cancellable cancelled = asScheduler.schedule(() -> ran.add("never"), Duration.ofMillis(50));
        assertThat(cancelled.cancel()).isTrue();
        assertThat(cancelled.cancel()).isFalse();
        assertThat(ran).isEmpty();
        assertThat(scheduler.pendingCount()).isEqualTo(3);
        assertThat(scheduler.pendingDelays()).containsExactly(Duration.ofMillis(200), Duration.ofMillis(100),
                Duration.ofMillis(100));

        scheduler.advance(Duration.ofMillis(150));
        assertThat(ran).containsExactly("a@100 " + START.plusMillis(100), "c@100 " + START.plusMillis(100));
        assertThat(scheduler.clock().instant()).isEqualTo(START.plusMillis(150));
        assertThat(asScheduler.nanoTime()).as("its clock, monotonic").isEqualTo(Duration.ofMillis(150).toNanos());
        assertThat(scheduler.pendingDelays()).containsExactly(Duration.ofMillis(50));

        scheduler.advance(Duration.ofMillis(50));
        assertThat(ran).hasSize(3).last().isEqualTo("b@200 " + START.plusMillis(200));
        assertThat(scheduler.pendingCount()).isZero();
        assertThatThrownBy(() -> scheduler.advance(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTaskScheduledByATaskWithinTheWindowRunsInTheSameAdvance() {
        ManualScheduler scheduler = new ManualScheduler(new ManualClock(START));
        List<Instant> ran = new ArrayList<>();
        scheduler.schedule(() -> {
            ran.add(scheduler.clock().instant());
            scheduler.schedule(() -> ran.add(scheduler.clock().instant()), Duration.ofSeconds(1));
        }, Duration.ofSeconds(1));
        scheduler.advance(Duration.ofSeconds(5));
        assertThat(ran).containsExactly(START.plusSeconds(1), START.plusSeconds(2));
        assertThat(scheduler.clock().instant()).isEqualTo(START.plusSeconds(5));
    }

    @Test
    void runPendingRunsWhatWaitsWithoutMovingTheClock() {
        ManualScheduler scheduler = new ManualScheduler();
        List<String> ran = new ArrayList<>();
        scheduler.schedule(() -> ran.add("later"), Duration.ofHours(1));
        scheduler.schedule(() -> ran.add("sooner"), Duration.ofMinutes(1));
        scheduler.runPending();
        assertThat(ran).containsExactly("sooner", "later");
        assertThat(scheduler.clock().instant()).isEqualTo(START);
        assertThat(scheduler.pendingCount()).isZero();
    }
}
