package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.metaruntime.events.TestEvents.agent;
import static org.metaruntime.events.TestEvents.json;
import static org.metaruntime.events.TestEvents.module;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.testing.CapturedLogs;
import org.slf4j.event.Level;

@Timeout(60)
class EventStoreTest {

    private static final StoreNotification INITIAL =
            new StoreNotification.ResyncRequired(StoreNotification.Reason.INITIAL_SYNC, 0);

    @Test
    void keepsEnvelopesSortedWhateverTheInsertOrder() {
        try (EventStore store = EventStore.create()) {
            store.insert(module("c", 3));
            store.insert(module("a", 1));
            store.insert(agent("b", 2));
            store.insert(module("d", 4));
            store.insert(module("a0", 0));
            assertThat(store.snapshot()).extracting(EventEnvelope::eventId).containsExactly("a0", "a", "b", "c", "d");
            assertThat(store.size()).isEqualTo(5);
            assertThat(store.newest()).map(EventEnvelope::eventId).contains("d");
        }
    }

    @Test
    void insertsAfterEqualKeys() {
        try (EventStore store = EventStore.create()) {
            EventEnvelope<UnifiedEvent> first = EventEnvelope.module("k", 5, "first", "t", null);
            EventEnvelope<UnifiedEvent> second = EventEnvelope.module("k", 5, "second", "t", null);
            store.insert(module("z", 9));
            store.insert(first);
            store.insert(second);
            assertThat(store.snapshot()).containsExactly(first, second, module("z", 9));
        }
    }

    @Test
    void randomInsertsMatchAStableSort() {
        Random random = new Random(3);
        List<EventEnvelope<UnifiedEvent>> all = new ArrayList<>();
        try (EventStore store = EventStore.create(100_000, 1)) {
            for (int i = 0; i < 5000; i++) {
                EventEnvelope<UnifiedEvent> e = EventEnvelope.module("id" + random.nextInt(3),
                        random.nextInt(200), "m" + i, "t", null);
                store.insert(e);
                all.add(e);
            }
            List<EventEnvelope<UnifiedEvent>> expected = new ArrayList<>(all);
            Collections.sort(expected, Events.order());
            assertThat(store.snapshot()).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void dropsTheOldestInABatchWhenSizeReachesRetentionPlusBatch() {
        try (EventStore store = EventStore.create(4, 2)) {
            for (int ts = 1; ts <= 5; ts++) {
                store.insert(module("e" + ts, ts));
            }
            assertThat(store.size()).isEqualTo(5);
            store.insert(module("e6", 6));
            assertThat(store.snapshot()).extracting(EventEnvelope::timestampMs).containsExactly(3L, 4L, 5L, 6L);
        }
    }

    @Test
    void theBatchDropFollowsTheOrderNotTheInsertionOrder() {
        try (EventStore store = EventStore.create(4, 2)) {
            for (long ts : new long[] {10, 20, 30, 40, 50}) {
                store.insert(module("e" + ts, ts));
            }
            store.insert(module("old", 5));
            assertThat(store.snapshot()).extracting(EventEnvelope::timestampMs).containsExactly(20L, 30L, 40L, 50L);
        }
    }

    @Test
    void sizeStaysBoundedOverManyInserts() {
        try (EventStore store = EventStore.create(100, 10)) {
            Random random = new Random(5);
            for (int i = 0; i < 10_000; i++) {
                store.insert(module("e" + i, i % 3 == 0 ? random.nextInt(10_000) : i));
                assertThat(store.size()).isLessThan(110);
            }
            assertThat(store.size()).isEqualTo(expectedSize(10_000, 100, 10));
            assertThat(store.snapshot()).isSortedAccordingTo(Events.order());
        }
    }

    @Test
    void snapshotIsAnImmutableCopy() {
        try (EventStore store = EventStore.create()) {
            store.insert(module("a", 1));
            List<EventEnvelope<UnifiedEvent>> snapshot = store.snapshot();
            store.insert(module("b", 2));
            assertThat(snapshot).hasSize(1);
            assertThatThrownBy(() -> snapshot.add(module("c", 3))).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> snapshot.set(0, module("c", 3))).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void queryFiltersBySourceModuleAgentTypeAndTimeRange() {
        try (EventStore store = EventStore.create()) {
            store.insert(EventEnvelope.module("m1", 10, "alpha", "ready", null));
            store.insert(EventEnvelope.module("m2", 20, "beta", "ready", null));
            store.insert(EventEnvelope.module("m3", 30, "alpha", "supervisor.warning", null));
            store.insert(EventEnvelope.agent("a1", 15, "agent-1", "run_started", null));
            store.insert(EventEnvelope.agent("a2", 25, "agent-2", "run_started", null));
            assertThat(ids(store.query(EventFilter.all()))).containsExactly("m1", "a1", "m2", "a2", "m3");
            assertThat(ids(store.query(EventFilter.builder().source("agent").build()))).containsExactly("a1", "a2");
            assertThat(ids(store.query(EventFilter.builder().module("alpha").build()))).containsExactly("m1", "m3");
            assertThat(ids(store.query(EventFilter.builder().agentId("agent-2").build()))).containsExactly("a2");
            assertThat(ids(store.query(EventFilter.builder().eventType("ready").build()))).containsExactly("m1", "m2");
            assertThat(ids(store.query(EventFilter.builder().fromMs(15).toMs(25).build())))
                    .containsExactly("a1", "m2", "a2");
            assertThat(ids(store.query(EventFilter.builder().eventType("ready").fromMs(11).build())))
                    .containsExactly("m2");
            assertThat(store.query(EventFilter.builder().fromMs(31).build())).isEmpty();
        }
    }

    @Test
    void agentEnvelopesAreProjectedBeforeTheyAreStored() {
        try (EventStore store = EventStore.create()) {
            store.insert(EventEnvelope.agent("a", 1, "agent", "tool_execution_completed", json("{\"id\":\"t\"}")));
            UnifiedEvent.Agent stored = (UnifiedEvent.Agent) store.snapshot().get(0).event();
            assertThat(stored.payload().get("tool_call_id").asText()).isEqualTo("t");
        }
    }

    @Test
    void concurrentInsertsKeepOrderAndTheBound() throws Exception {
        int threads = 4;
        int perThread = 5_000;
        try (EventStore bounded = EventStore.create(1_000, 100);
             EventStore unbounded = EventStore.create(1_000_000, 1)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<List<EventEnvelope<UnifiedEvent>>>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    futures.add(pool.submit(() -> {
                        Random random = new Random(thread);
                        List<EventEnvelope<UnifiedEvent>> mine = new ArrayList<>();
                        start.await();
                        for (int i = 0; i < perThread; i++) {
                            EventEnvelope<UnifiedEvent> e = module("t" + thread + "-" + i, random.nextInt(100_000));
                            bounded.insert(e);
                            unbounded.insert(e);
                            mine.add(e);
                        }
                        return mine;
                    }));
                }
                List<EventEnvelope<UnifiedEvent>> all = new ArrayList<>();
                for (Future<List<EventEnvelope<UnifiedEvent>>> f : futures) {
                    all.addAll(f.get(30, TimeUnit.SECONDS));
                }
                all.sort(Events.order());
                assertThat(unbounded.snapshot()).containsExactlyElementsOf(all);
                assertThat(bounded.size()).isEqualTo(expectedSize(threads * perThread, 1_000, 100));
                assertThat(bounded.snapshot()).isSortedAccordingTo(Events.order());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aSubscriptionStartsWithInitialSyncThenGetsEachEnvelopeInInsertionOrder() {
        try (EventStore store = EventStore.create()) {
            store.insert(module("before", 1));
            List<StoreNotification> seen = new CopyOnWriteArrayList<>();
            try (Subscription sub = store.subscribe(seen::add)) {
                store.insert(module("b", 5));
                store.insert(module("a", 2));
                await().until(() -> seen.size() == 3);
                assertThat(seen).containsExactly(INITIAL,
                        new StoreNotification.Envelope(module("b", 5)),
                        new StoreNotification.Envelope(module("a", 2)));
                assertThat(sub.isClosed()).isFalse();
            }
        }
    }

    @Test
    void aLaggingSubscriberGetsLaggedWithTheSkippedCountAtTheEnd() throws Exception {
        try (EventStore store = EventStore.create()) {
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<StoreNotification> seen = new CopyOnWriteArrayList<>();
            store.subscribe(n -> {
                seen.add(n);
                if (n.equals(INITIAL)) {
                    entered.countDown();
                    awaitQuietly(release);
                }
            }, 2);
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 1; i <= 5; i++) {
                store.insert(module("e" + i, i)); // never blocks although the subscriber is stuck
            }
            release.countDown();
            await().until(() -> seen.size() == 4);
            store.insert(module("e6", 6));
            await().until(() -> seen.size() == 5);
            assertThat(seen).containsExactly(INITIAL,
                    new StoreNotification.Envelope(module("e1", 1)),
                    new StoreNotification.Envelope(module("e2", 2)),
                    new StoreNotification.ResyncRequired(StoreNotification.Reason.LAGGED, 3),
                    new StoreNotification.Envelope(module("e6", 6)));
            assertThat(store.size()).isEqualTo(6);
        }
    }

    @Test
    void theLaggedNoticeSitsAtTheGapWhenNewerEnvelopesFit() throws Exception {
        try (EventStore store = EventStore.create()) {
            Semaphore permits = new Semaphore(0);
            List<StoreNotification> seen = new CopyOnWriteArrayList<>();
            store.subscribe(n -> {
                seen.add(n);
                permits.acquireUninterruptibly();
            }, 3);
            await().until(() -> seen.size() == 1);          // stuck in initial_sync, queue empty
            for (int i = 1; i <= 4; i++) {
                store.insert(module("e" + i, i));           // e1..e3 queued, e4 skipped
            }
            permits.release();
            await().until(() -> seen.size() == 2);          // stuck in e1, queue [e2, e3]: no room for notice + e5
            store.insert(module("e5", 5));                  // skipped
            permits.release();
            await().until(() -> seen.size() == 3);          // stuck in e2, queue [e3]
            store.insert(module("e6", 6));                  // queue [e3, lagged(2), e6]
            permits.release(100);
            await().until(() -> seen.size() == 6);
            assertThat(seen).containsExactly(INITIAL,
                    new StoreNotification.Envelope(module("e1", 1)),
                    new StoreNotification.Envelope(module("e2", 2)),
                    new StoreNotification.Envelope(module("e3", 3)),
                    new StoreNotification.ResyncRequired(StoreNotification.Reason.LAGGED, 2),
                    new StoreNotification.Envelope(module("e6", 6)));
        }
    }

    @Test
    void aThrowingSubscriberIsIsolatedAndLoggedThroughSlf4j() throws Exception {
        assertThat(CapturedLogs.installed()).as("the capturing SLF4J binding of the tests").isTrue();
        CapturedLogs.clear();
        try (EventStore store = EventStore.create()) {
            List<String> badSaw = new CopyOnWriteArrayList<>();
            List<StoreNotification> goodSaw = new CopyOnWriteArrayList<>();
            Subscription bad = store.subscribe(n -> {
                if (n instanceof StoreNotification.Envelope) {
                    String id = ((StoreNotification.Envelope) n).envelope().eventId();
                    badSaw.add(id);
                    if (id.startsWith("boom")) {
                        throw new IllegalStateException("subscriber failure");
                    }
                } else {
                    throw new IllegalStateException("fails on resync too");
                }
            });
            store.subscribe(goodSaw::add);
            store.insert(module("boom1", 1));
            store.insert(module("ok", 2));
            store.insert(module("boom2", 3));
            await().until(() -> badSaw.size() == 3 && goodSaw.size() == 4);
            assertThat(badSaw).containsExactly("boom1", "ok", "boom2");
            assertThat(bad.isClosed()).isFalse();
            await().until(() -> subscriberWarnings().size() >= 3);
            assertThat(subscriberWarnings()).allSatisfy(e -> {
                assertThat(e.level()).isEqualTo(Level.WARN);
                assertThat(e.error()).isInstanceOf(IllegalStateException.class);
                assertThat(e.message()).contains("the subscription continues");
            });
        }
    }

    private static List<CapturedLogs.Entry> subscriberWarnings() {
        return CapturedLogs.matching(e -> e.logger().equals("org.metaruntime.events")
                && e.message().startsWith("event store subscriber on"));
    }

    @Test
    void closingStopsTheSubscriberThreadsAndRefusesNewSubscriptions() throws Exception {
        EventStore store = EventStore.create();
        AtomicReference<Thread> firstThread = new AtomicReference<>();
        AtomicReference<Thread> secondThread = new AtomicReference<>();
        Subscription first = store.subscribe(n -> firstThread.compareAndSet(null, Thread.currentThread()));
        store.subscribe(n -> secondThread.compareAndSet(null, Thread.currentThread()));
        await().until(() -> firstThread.get() != null && secondThread.get() != null);
        List<Thread> threads = List.of(firstThread.get(), secondThread.get());
        assertThat(threads).allSatisfy(t -> {
            assertThat(t.getName()).startsWith("meta-events-subscriber-");
            assertThat(t.isDaemon()).isTrue();
        });
        first.close();
        assertThat(first.isClosed()).isTrue();
        assertThat(firstThread.get().isAlive()).isFalse();
        assertThat(secondThread.get().isAlive()).isTrue();
        store.close();
        store.close();
        for (Thread t : threads) {
            assertThat(t.isAlive()).as(t.getName()).isFalse();
        }
        assertThatThrownBy(() -> store.subscribe(n -> { })).isInstanceOf(IllegalStateException.class);
        store.insert(module("after", 1)); // the buffer stays usable
        assertThat(store.size()).isEqualTo(1);
    }

    @Test
    void aSubscriberMayCloseItsOwnSubscription() {
        try (EventStore store = EventStore.create()) {
            List<StoreNotification> seen = new CopyOnWriteArrayList<>();
            Subscription[] self = new Subscription[1];
            CountDownLatch assigned = new CountDownLatch(1);
            self[0] = store.subscribe(n -> {
                awaitQuietly(assigned);
                seen.add(n);
                self[0].close();
            });
            assigned.countDown();
            await().until(() -> self[0].isClosed());
            store.insert(module("x", 1));
            assertThat(seen).containsExactly(INITIAL);
        }
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> EventStore.create(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventStore.create(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventStore.create(Integer.MAX_VALUE, 10)).isInstanceOf(IllegalArgumentException.class);
        try (EventStore store = EventStore.create()) {
            assertThat(store.retention()).isEqualTo(4096);
            assertThat(store.dropBatch()).isEqualTo(1024);
            assertThatThrownBy(() -> store.insert(null)).isInstanceOf(NullPointerException.class).hasMessage("envelope");
            assertThatThrownBy(() -> store.subscribe(null)).isInstanceOf(NullPointerException.class)
                    .hasMessage("subscriber");
            assertThatThrownBy(() -> store.subscribe(n -> { }, 0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.query(null)).isInstanceOf(NullPointerException.class).hasMessage("filter");
        }
    }

    private static int expectedSize(int inserts, int retention, int batch) {
        return inserts < retention + batch ? inserts : retention + (inserts - retention) % batch;
    }

    private static List<String> ids(List<EventEnvelope<UnifiedEvent>> envelopes) {
        List<String> ids = new ArrayList<>();
        envelopes.forEach(e -> ids.add(e.eventId()));
        return ids;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
