package org.metaruntime.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.events.Subscription;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;

@Timeout(30)
class HealthFeedTest {

    private static ModuleHealthTransition t(int attempt) {
        return new ModuleHealthTransition("m", ModuleHealthState.STARTING, ModuleHealthState.HEALTHY, attempt);
    }

    @Test
    void aBlockedListenerNeitherBlocksThePublisherNorOtherListenersAndIsToldWhatItMissed() throws Exception {
        HealthFeed feed = new HealthFeed();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch slowGotFirst = new CountDownLatch(1);
        List<Integer> slow = new CopyOnWriteArrayList<>();
        List<Integer> fast = new CopyOnWriteArrayList<>();
        List<Integer> thrower = new CopyOnWriteArrayList<>();
        AtomicInteger missed = new AtomicInteger();
        Subscription blocked = feed.subscribe(t -> {
            slow.add(t.attempt());
            slowGotFirst.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, missed::addAndGet, 2);
        Subscription normal = feed.subscribe(t -> fast.add(t.attempt()), n -> { }, 100);
        Subscription throwing = feed.subscribe(t -> {
            thrower.add(t.attempt());
            throw new IllegalStateException("listener bug");
        }, n -> { }, 100);

        feed.publish(t(1));
        assertThat(slowGotFirst.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 2; i <= 10; i++) {
            feed.publish(t(i));            // returns at once although the slow listener is blocked
        }
        await().atMost(10, TimeUnit.SECONDS).until(() -> fast.size() == 10 && thrower.size() == 10);
        assertThat(fast).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(thrower).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);

        release.countDown();
        await().atMost(10, TimeUnit.SECONDS).until(() -> slow.size() == 3 && missed.get() == 7);
        assertThat(slow).containsExactly(1, 2, 3);       // the first, then the two its queue held

        blocked.close();
        normal.close();
        throwing.close();
        assertThat(blocked.isClosed()).isTrue();
        feed.publish(t(11));
        assertThat(fast).hasSize(10);
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
                .extracting(Thread::getName).noneMatch(name -> name.startsWith("meta-core-health-")));
    }

    @Test
    void closingTheFeedStopsAListenerThatNeverReturnsWithoutWaitingForIt() throws Exception {
        HealthFeed feed = new HealthFeed();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Subscription stuck = feed.subscribe(t -> {
            entered.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, n -> { }, 4);
        feed.publish(t(1));
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        feed.close();                                        // returns although the listener is still inside
        assertThat(stuck.isClosed()).isTrue();
        never.countDown();
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
                .extracting(Thread::getName).noneMatch(name -> name.startsWith("meta-core-health-")));
    }
}
