package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.Scheduler;

/** A bridged call's one pending deadline, on a scheduler the test runs by hand. */
class CallTimerTest {

    private final Object lock = new Object();
    private final List<Runnable> due = new ArrayList<>();
    private final List<Duration> delays = new ArrayList<>();
    private final AtomicInteger cancelled = new AtomicInteger();
    private final CallTimer timer = new CallTimer(lock, (task, delay) -> {
        due.add(task);
        delays.add(delay);
        return () -> {
            cancelled.incrementAndGet();
            return true;
        };
    });

    @Test
    void anArmedTimerRunsItsActionOnce() {
        AtomicInteger runs = new AtomicInteger();
        synchronized (lock) {
            timer.arm(Duration.ofSeconds(3), runs::incrementAndGet);
        }
        assertThat(delays).containsExactly(Duration.ofSeconds(3));
        due.get(0).run();
        assertThat(runs).hasValue(1);
    }

    @Test
    void armingAgainOrCancellingDropsATaskThatAlreadyFellDue() {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        synchronized (lock) {
            timer.arm(Duration.ofSeconds(1), first::incrementAndGet);
            timer.arm(Duration.ofSeconds(2), second::incrementAndGet);
        }
        assertThat(cancelled).as("the first task is cancelled at the scheduler").hasValue(1);
        due.get(0).run(); // it fell due before the cancel reached the scheduler
        assertThat(first).hasValue(0);
        synchronized (lock) {
            timer.cancel();
        }
        due.get(1).run();
        assertThat(second).hasValue(0);
    }
}
