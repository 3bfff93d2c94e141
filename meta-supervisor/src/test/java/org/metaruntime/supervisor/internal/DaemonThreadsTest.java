package org.metaruntime.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {

    @Test
    void aTimersCancelledTasksLeaveItsQueueAtOnceAndItsThreadIsANamedDaemon() throws Exception {
        ScheduledThreadPoolExecutor timer = DaemonThreads.timer("daemon-threads-test");
        try {
            for (int i = 0; i < 100; i++) {
                ScheduledFuture<?> task = timer.schedule(() -> { }, 1, TimeUnit.HOURS);
                task.cancel(false);
            }
            ScheduledFuture<?> pending = timer.schedule(() -> { }, 1, TimeUnit.HOURS);
            assertThat(timer.getQueue()).hasSize(1);

            Thread[] ran = new Thread[1];
            timer.submit(() -> ran[0] = Thread.currentThread()).get(10, TimeUnit.SECONDS);
            assertThat(ran[0].getName()).isEqualTo("daemon-threads-test");
            assertThat(ran[0].isDaemon()).isTrue();
            pending.cancel(false);
        } finally {
            timer.shutdownNow();
            assertThat(timer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
