package org.metaruntime.events.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SpinParkLockTest {

    private final SpinParkLock lock = new SpinParkLock();
    private long counter; // guarded by lock, deliberately not atomic

    @Test
    void excludesEveryOtherThread() throws Exception {
        int threads = 8;
        int increments = 200_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                for (int i = 0; i < increments; i++) {
                    lock.lock();
                    try {
                        counter++;
                    } finally {
                        lock.unlock();
                    }
                }
            });
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        assertThat(counter).isEqualTo((long) threads * increments);
    }

    @Test
    void aWaiterGetsTheLockWhenItIsGivenBackAndKeepsItsInterrupt() throws Exception {
        lock.lock();
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicBoolean acquired = new AtomicBoolean();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            Thread.currentThread().interrupt();
            waiting.countDown();
            lock.lock();
            try {
                acquired.set(true);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            } finally {
                lock.unlock();
            }
        });
        waiter.start();
        waiting.await();
        // The waiter is parked or about to be: it must not get the lock while this thread holds it.
        waiter.join(200);
        assertThat(acquired).isFalse();
        lock.unlock();
        waiter.join();
        assertThat(acquired).isTrue();
        assertThat(stillInterrupted).isTrue();
    }
}
