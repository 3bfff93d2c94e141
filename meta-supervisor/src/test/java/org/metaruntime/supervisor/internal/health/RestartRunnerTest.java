package org.metaruntime.supervisor.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;

class RestartRunnerTest {

    private final ManualScheduler manual = new ManualScheduler();
    private final List<Long> ran = new CopyOnWriteArrayList<>();

    @Test
    void aScheduledAttemptRunsOnTheExecutorOnceItsDelayHasPassed() {
        List<Runnable> handedOver = new CopyOnWriteArrayList<>();
        RestartRunner runner = new RestartRunner("m", manual, handedOver::add);

        long ticket = runner.newTicket();
        runner.schedule(ticket, Duration.ofSeconds(2), ran::add);
        manual.advance(Duration.ofMillis(1999));
        assertThat(handedOver).isEmpty();
        manual.advance(Duration.ofMillis(1));

        assertThat(handedOver).hasSize(1);
        assertThat(ran).isEmpty();
        handedOver.get(0).run();
        assertThat(ran).containsExactly(ticket);
    }

    @Test
    void anAttemptTheExecutorRefusesRunsOnTheScheduler() {
        Executor refusing = task -> {
            throw new RejectedExecutionException("full");
        };
        RestartRunner runner = new RestartRunner("m", manual, refusing);

        long ticket = runner.newTicket();
        runner.schedule(ticket, Duration.ZERO, ran::add);
        manual.runPending();

        assertThat(ran).containsExactly(ticket);
    }

    @Test
    void onlyTheNewestTicketBeginsAndOnlyOneAttemptRunsAtATime() {
        RestartRunner runner = new RestartRunner("m", manual, Runnable::run);
        long stale = runner.newTicket();
        long current = runner.newTicket();

        assertThat(runner.begin(stale)).isFalse();
        assertThat(runner.begin(current)).isTrue();
        assertThat(runner.begin(current)).as("one is running").isFalse();
        runner.end();
        assertThat(runner.begin(current)).isTrue();
    }

    @Test
    void dropAllMakesEveryTicketStaleAndHandsBackThePendingRestart() {
        RestartRunner runner = new RestartRunner("m", manual, Runnable::run);
        long ticket = runner.newTicket();
        runner.schedule(ticket, Duration.ofSeconds(1), ran::add);

        Scheduler.Cancellable pending = runner.dropAll();
        assertThat(pending).isNotNull();
        pending.cancel();
        manual.advance(Duration.ofSeconds(1));

        assertThat(ran).isEmpty();
        assertThat(runner.begin(ticket)).isFalse();
        assertThat(runner.dropAll()).as("nothing pending any more").isNull();
    }

    @Test
    void itsOwnSchedulerIsClosedWithIt() {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        RestartRunner runner = new RestartRunner("m", null, Runnable::run);
        runner.schedule(runner.newTicket(), Duration.ZERO, ticket -> threads.add(Thread.currentThread()));
        await().atMost(Duration.ofSeconds(10)).until(() -> threads.size() == 1);

        runner.close();

        assertThat(threads.get(0).getName()).isEqualTo("meta-supervisor-scheduler");
        await().atMost(Duration.ofSeconds(10)).until(() -> !threads.get(0).isAlive());
    }
}
