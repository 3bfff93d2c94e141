package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.Scheduler;

/** Many deadlines on one armed task of the scheduler beneath, run by hand on a set clock. */
class EarliestFirstSchedulerTest {

    private final AtomicLong now = new AtomicLong();
    private final List<Runnable> armed = new ArrayList<>();
    private final List<Duration> delays = new ArrayList<>();
    private final List<Boolean> cancelled = new ArrayList<>();
    private final EarliestFirstScheduler scheduler = new EarliestFirstScheduler((task, delay) -> {
        int index = armed.size();
        armed.add(task);
        delays.add(delay);
        cancelled.add(false);
        return () -> {
            cancelled.set(index, true);
            return true;
        };
    }, now::get);
    private final List<String> ran = new ArrayList<>();

    private Scheduler.Cancellable at(long seconds, String name) {
        return scheduler.schedule(() -> ran.add(name), Duration.ofSeconds(seconds));
    }

    private void runArmedAt(long seconds) {
        now.set(Duration.ofSeconds(seconds).toNanos());
        int last = armed.size() - 1;
        assertThat(cancelled.get(last)).as("the armed task is live").isFalse();
        armed.get(last).run();
    }

    @Test
    void onlyAnEarlierDeadlineTouchesTheSchedulerBeneath() {
        at(10, "ten");
        at(20, "twenty");
        at(15, "fifteen");
        assertThat(delays).containsExactly(Duration.ofSeconds(10));
        at(5, "five");
        assertThat(delays).containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(5));
        assertThat(cancelled).containsExactly(true, false);
    }

    @Test
    void dueDeadlinesRunEarliestFirstAndTheNextIsArmed() {
        at(10, "ten");
        at(5, "five");
        at(20, "twenty");
        runArmedAt(11);
        assertThat(ran).containsExactly("five", "ten");
        assertThat(delays.get(delays.size() - 1)).isEqualTo(Duration.ofSeconds(9));
        runArmedAt(20);
        assertThat(ran).containsExactly("five", "ten", "twenty");
    }

    @Test
    void aCancelledDeadlineNeverRunsAndCostsNothingBeneath() {
        Scheduler.Cancellable ten = at(10, "ten");
        at(30, "thirty");
        int scheduled = armed.size();
        assertThat(ten.cancel()).isTrue();
        assertThat(armed).hasSize(scheduled);
        runArmedAt(10);
        assertThat(ran).isEmpty();
        assertThat(delays.get(delays.size() - 1)).isEqualTo(Duration.ofSeconds(20));
        runArmedAt(30);
        assertThat(ran).containsExactly("thirty");
    }
}
