package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.supervisor.internal.health.ChildFailure;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;
import org.metaruntime.supervisor.internal.health.SupervisionListener;

/** The default scheduler on its real thread, and a supervisor that owns one. */
@Timeout(30)
class SupervisorSchedulerTest {

    @Test
    void runsTasksOnANamedDaemonThreadAndEndsItOnClose() throws Exception {
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();
        Scheduler scheduler = Scheduler.daemon();
        try {
            scheduler.schedule(() -> {
                throw new IllegalStateException("a task bug is logged, not fatal");
            }, Duration.ZERO);
            scheduler.schedule(() -> ranOn.complete(Thread.currentThread()), Duration.ZERO);

            Thread thread = ranOn.get(10, TimeUnit.SECONDS);
            assertThat(thread.getName()).isEqualTo("meta-supervisor-scheduler");
            assertThat(thread.isDaemon()).isTrue();

            scheduler.close();
            thread.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(thread.isAlive()).isFalse();
            assertThatThrownBy(() -> scheduler.schedule(() -> { }, Duration.ZERO))
                    .isInstanceOf(RejectedExecutionException.class);
        } finally {
            scheduler.close();
        }
    }

    @Test
    void aCancelledTaskIsRemoved() {
        AtomicInteger runs = new AtomicInteger();
        try (Scheduler scheduler = Scheduler.daemon()) {
            Scheduler.Cancellable cancelled = scheduler.schedule(runs::incrementAndGet, Duration.ofHours(1));

            assertThat(cancelled.cancel()).isTrue();
            assertThat(cancelled.cancel()).isFalse();
            assertThat(runs).hasValue(0);
        }
    }

    @Test
    void aSupervisorWithItsOwnSchedulerRestartsOnARestartThreadAndReleasesItsThreadsOnClose() throws Exception {
        Set<Thread> schedulerThreadsBefore = schedulerThreads();
        List<ModuleHealthTransition> transitions = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Thread> restartedOn = new CompletableFuture<>();
        CountDownLatch healthyAgain = new CountDownLatch(1);
        ModuleSupervisor<Object> supervisor = ModuleSupervisor.<Object>builder("clock", n -> {
            restartedOn.complete(Thread.currentThread());
            return new Object();
        }, child -> { })
                .options(SupervisionOptions.builder().initialBackoff(Duration.ZERO).build())
                .listener(new SupervisionListener<Object>() {
                    @Override
                    public void onTransition(ModuleHealthTransition transition) {
                        transitions.add(transition);
                        if (transition.to() == ModuleHealthState.HEALTHY) {
                            healthyAgain.countDown();
                        }
                    }
                })
                .adopt(new Object(), 1);

        supervisor.childFailed(supervisor.currentChild().orElseThrow(), ChildFailure.of("crashed"));

        assertThat(healthyAgain.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(transitions).extracting(ModuleHealthTransition::to).containsExactly(ModuleHealthState.FAILED,
                ModuleHealthState.RESTARTING, ModuleHealthState.HEALTHY);
        Thread restartThread = restartedOn.get(10, TimeUnit.SECONDS);
        assertThat(restartThread.getName()).isEqualTo("meta-supervisor-restart-clock");
        assertThat(restartThread.isDaemon()).isTrue();
        restartThread.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(restartThread.isAlive()).isFalse();

        List<Thread> schedulerThreads = schedulerThreads().stream()
                .filter(thread -> !schedulerThreadsBefore.contains(thread))
                .collect(Collectors.toList());
        assertThat(schedulerThreads).hasSize(1);

        supervisor.close();
        schedulerThreads.get(0).join(TimeUnit.SECONDS.toMillis(10));
        assertThat(schedulerThreads.get(0).isAlive()).isFalse();
    }

    private static Set<Thread> schedulerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("meta-supervisor-scheduler"))
                .collect(Collectors.toSet());
    }
}
