package org.metaruntime.supervisor.internal.manual;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.Scheduler;

class ManualSchedulerTest {

    private final ManualScheduler scheduler = new ManualScheduler();
    private final List<String> ran = new ArrayList<>();

    @Test
    void runsTasksInDueOrderAsTheClockAdvances() {
        scheduler.schedule(() -> ran.add("b@200"), Duration.ofMillis(200));
        scheduler.schedule(() -> ran.add("a@100"), Duration.ofMillis(100));
        Scheduler.Cancellable cancelled = scheduler.schedule(() -> ran.add("never"), Duration.ofMillis(150));

        assertThat(cancelled.cancel()).isTrue();
        scheduler.advance(Duration.ofMillis(99));
        assertThat(ran).isEmpty();
        assertThat(scheduler.pendingDelays()).containsExactly(Duration.ofMillis(101), Duration.ofMillis(1));
        scheduler.advance(Duration.ofMillis(101));

        assertThat(ran).containsExactly("a@100", "b@200");
        assertThat(scheduler.clock().nanoTime()).isEqualTo(Duration.ofMillis(200).toNanos());
        assertThat(scheduler.nanoTime()).as("the scheduler's clock is its manual clock")
                .isEqualTo(scheduler.clock().nanoTime());
        assertThat(scheduler.requestedDelays()).hasSize(3);
    }

    @Test
    void aTaskScheduledByATaskRunsWhenItsTimeComes() {
        scheduler.schedule(() -> scheduler.schedule(() -> ran.add("second"), Duration.ofMillis(50)),
                Duration.ofMillis(50));

        scheduler.advance(Duration.ofMillis(100));

        assertThat(ran).containsExactly("second");
    }

    @Test
    void runPendingRunsWhatWaitsWhateverItsDueTime() {
        scheduler.schedule(() -> ran.add("late"), Duration.ofDays(1));

        scheduler.runPending();

        assertThat(ran).containsExactly("late");
        assertThat(scheduler.pendingCount()).isZero();
    }
}
