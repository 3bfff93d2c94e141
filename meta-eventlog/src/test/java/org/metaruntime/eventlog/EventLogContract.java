package org.metaruntime.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.events.EventCodec;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventFilter;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.MobEvent;
import org.metaruntime.events.MobEventPage;
import org.metaruntime.events.MobEventProjection;
import org.metaruntime.events.MobEventQuery;
import org.metaruntime.events.MobStructuralEventEnvelope;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.UnifiedEvent;

/**
 * The behaviour every {@link EventLog} implementation has; each storage runs it through a subclass. A test
 * gets fresh, empty storage; {@link #open} opens a log on it (again after a close, on the same storage).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class EventLogContract {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration FLUSH = Duration.ofSeconds(60);

    /** Opens a log on this test's storage. */
    abstract EventLog open(EventLogOptions options);

    /** Holds the storage's write lock (another connection's open write transaction) until closed. */
    abstract AutoCloseable holdWriteLock() throws Exception;

    EventLog open() {
        return open(EventLogOptions.builder().instanceId("test-instance").build());
    }

    static EventEnvelope<UnifiedEvent> module(int i, String module, String type) {
        ObjectNode payload = JSON.createObjectNode().put("i", i);
        return EventEnvelope.module("m-" + i, 1_000 + i, module, type, payload);
    }

    static EventEnvelope<UnifiedEvent> agent(int i, String agent, String type) {
        return EventEnvelope.agent("a-" + i, 1_000 + i, agent, type, JSON.createObjectNode().put("i", i));
    }

    static List<LoggedEvent> readAll(EventLog log, EventQuery query) {
        List<LoggedEvent> rows = new ArrayList<>();
        EventPage page = log.query(query);
        rows.addAll(page.events());
        while (page.nextAfterSeq() != null) {
            page = log.query(query.withAfterSeq(page.nextAfterSeq()));
            rows.addAll(page.events());
        }
        return rows;
    }

    static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void appendedRowsComeBackInSeqOrderPageByPageWithStrictlyIncreasingSeq() {
        try (EventLog log = open()) {
            for (int i = 0; i < 1_050; i++) {
                log.append(module(i, "m", "tick"));
            }
            assertThat(log.flush(FLUSH)).isTrue();
            EventPage first = log.query(EventQuery.all());
            assertThat(first.events()).hasSize(100);
            assertThat(first.nextAfterSeq()).isEqualTo(first.events().get(99).seq());
            List<LoggedEvent> rows = readAll(log, EventQuery.builder().limit(100).build());
            assertThat(rows).hasSize(1_050);
            for (int i = 0; i < rows.size(); i++) {
                assertThat(rows.get(i).envelope().eventId()).isEqualTo("m-" + i);
                assertThat(rows.get(i).instanceId()).isEqualTo("test-instance");
                if (i > 0) {
                    assertThat(rows.get(i).seq()).isGreaterThan(rows.get(i - 1).seq());
                }
            }
            EventPage last = log.query(EventQuery.all().withAfterSeq(rows.get(1_000).seq()));
            assertThat(last.events()).hasSize(49);
            assertThat(last.nextAfterSeq()).isNull();
        }
    }

    @Test
    void envelopesAreKeptByteIdenticalWithUnknownFieldsAndNonAsciiText() throws Exception {
        List<String> lines = List.of(
                "{\"event_id\":\"u1\",\"source\":\"module\",\"timestamp_ms\":1,\"event\":{\"kind\":\"module\","
                        + "\"module\":\"m\",\"event_type\":\"ready\",\"payload\":{\"text\":\"日本語 🎉 naïve\","
                        + "\"unknown_field\":{\"nested\":[1,2.50,1E+400,0.0]},\"big\":123456789012345678901234567890}}}",
                "{\"event_id\":\"u2\",\"source\":\"module\",\"timestamp_ms\":2,\"event\":{\"kind\":\"module\","
                        + "\"module\":\"m\",\"event_type\":\"null-payload\",\"payload\":null}}",
                "{\"event_id\":\"u3\",\"source\":\"agent\",\"timestamp_ms\":3,\"event\":{\"kind\":\"agent\","
                        + "\"agent_id\":\"a\",\"event_type\":\"run_started\"}}",
                "{\"event_id\":\"u4\",\"source\":\"agent\",\"timestamp_ms\":4,\"event\":{\"kind\":\"agent\","
                        + "\"agent_id\":\"a\",\"event_type\":\"text_delta\",\"payload\":{\"delta\":\"\\u0000\\n\\\"\","
                        + "\"extra\":true}}}");
        List<EventEnvelope<UnifiedEvent>> envelopes = lines.stream().map(EventCodec::fromJson).toList();
        assertThat(envelopes).extracting(EventCodec::toJson).isEqualTo(lines);
        try (EventLog log = open()) {
            envelopes.forEach(log::append);
            assertThat(log.flush(FLUSH)).isTrue();
            List<LoggedEvent> rows = log.query(EventQuery.all()).events();
            assertThat(rows).hasSize(4);
            for (int i = 0; i < 4; i++) {
                assertThat(rows.get(i).json()).isEqualTo(lines.get(i));
                assertThat(rows.get(i).envelope()).isEqualTo(envelopes.get(i));
                assertThat(EventCodec.toJson(rows.get(i).envelope())).isEqualTo(rows.get(i).json());
            }
        }
    }

    @Test
    void everyFilterSelectsWhatTheInMemoryFilterSelects() {
        List<EventEnvelope<UnifiedEvent>> all = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            all.add(i % 3 == 0 ? agent(i, "agent-" + (i % 4), i % 2 == 0 ? "run_started" : "text_delta")
                    : module(i, "mod-" + (i % 5), i % 2 == 0 ? "tick" : "mcp.ready"));
        }
        List<EventFilter> filters = List.of(
                EventFilter.all(),
                EventFilter.builder().source("agent").build(),
                EventFilter.builder().source("module").build(),
                EventFilter.builder().module("mod-2").build(),
                EventFilter.builder().agentId("agent-1").build(),
                EventFilter.builder().eventType("tick").build(),
                EventFilter.builder().module("mod-3").eventType("mcp.ready").build(),
                EventFilter.builder().agentId("agent-3").eventType("run_started").fromMs(1_100).toMs(1_400).build(),
                EventFilter.builder().fromMs(1_250).toMs(1_260).build(),
                EventFilter.builder().module("none").build());
        try (EventLog log = open()) {
            all.forEach(log::append);
            assertThat(log.flush(FLUSH)).isTrue();
            for (EventFilter filter : filters) {
                List<EventEnvelope<UnifiedEvent>> expected = all.stream().filter(filter::matches).toList();
                List<EventEnvelope<UnifiedEvent>> got = readAll(log, new EventQuery(filter, 0, 37)).stream()
                        .map(LoggedEvent::envelope).toList();
                assertThat(got).as(filter.toString()).isEqualTo(expected);
            }
        }
    }

    @Test
    void limitsAreValidated() {
        assertThatThrownBy(() -> EventQuery.builder().limit(0).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventQuery.builder().limit(10_001).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventQuery.builder().afterSeq(-1).build())
                .isInstanceOf(IllegalArgumentException.class);
        try (EventLog log = open()) {
            for (int i = 0; i < 12_000; i++) {
                log.append(module(i, "m", "tick"));
            }
            assertThat(log.flush(FLUSH)).isTrue();
            assertThat(log.query(EventQuery.builder().limit(10_000).build()).events()).hasSize(10_000);
            assertThat(log.query(EventQuery.builder().limit(1).build()).events()).hasSize(1);
        }
    }

    @Test
    void closeCommitsEverythingQueuedAndAReopenedLogContinuesTheSequence() {
        EventLog log = open();
        for (int i = 0; i < 20_000; i++) {
            log.append(module(i, "m", "tick"));
        }
        log.close();
        assertThatThrownBy(() -> log.append(module(0, "m", "tick"))).isInstanceOf(IllegalStateException.class);
        try (EventLog again = open()) {
            List<LoggedEvent> rows = readAll(again, EventQuery.builder().limit(10_000).build());
            assertThat(rows).hasSize(20_000);
            long lastSeq = rows.get(rows.size() - 1).seq();
            again.append(module(20_000, "m", "tick"));
            assertThat(again.flush(FLUSH)).isTrue();
            EventPage next = again.query(EventQuery.all().withAfterSeq(lastSeq));
            assertThat(next.events()).singleElement().satisfies(r -> {
                assertThat(r.seq()).isGreaterThan(lastSeq);
                assertThat(r.envelope().eventId()).isEqualTo("m-20000");
            });
        }
    }

    @Test
    void aFullQueueDropsAndRecordsOneGapRowAndAWarningNothingSilently() throws Exception {
        EventLogOptions options = EventLogOptions.builder().instanceId("small").queueCapacity(8).maxBatch(2).build();
        int appended = 200;
        try (EventLog log = open(options)) {
            try (AutoCloseable lock = holdWriteLock()) {
                for (int i = 0; i < appended; i++) {
                    log.append(module(i, "m", "tick"));
                }
            }
            assertThat(log.flush(FLUSH)).isTrue();
            List<LoggedEvent> rows = readAll(log, EventQuery.builder().limit(1_000).build());
            List<LoggedEvent> ticks = rows.stream().filter(r -> r.envelope().event().eventType().equals("tick"))
                    .toList();
            List<LoggedEvent> gaps = rows.stream()
                    .filter(r -> r.envelope().event().eventType().equals(EventLog.GAP_EVENT_TYPE)).toList();
            List<LoggedEvent> warnings = rows.stream()
                    .filter(r -> r.envelope().event().eventType().equals("supervisor.warning")).toList();
            assertThat(gaps).isNotEmpty();
            assertThat(warnings).hasSameSizeAs(gaps);
            long dropped = 0;
            for (LoggedEvent gap : gaps) {
                UnifiedEvent.Module event = (UnifiedEvent.Module) gap.envelope().event();
                assertThat(event.event().module()).isEqualTo(EventLog.LOG_MODULE);
                dropped += event.event().payload().get("dropped").longValue();
            }
            for (LoggedEvent warning : warnings) {
                JsonNode payload = ((UnifiedEvent.Module) warning.envelope().event()).event().payload();
                assertThat(payload.get("error_type").textValue()).isEqualTo("event_log_overflow");
                assertThat(payload.get("error").textValue()).contains("dropped");
            }
            assertThat(ticks.size() + dropped).isEqualTo(appended);
            assertThat(ticks.size()).isLessThanOrEqualTo(8 + 2 + 1);
        }
    }

    @Test
    void retentionByRowCountKeepsTheNewestRows() {
        EventLogOptions options = EventLogOptions.builder().instanceId("r").retentionMaxRows(100)
                .retentionInterval(Duration.ofMillis(1)).build();
        try (EventLog log = open(options)) {
            for (int i = 0; i < 1_000; i++) {
                log.append(module(i, "m", "tick"));
            }
            assertThat(log.flush(FLUSH)).isTrue();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                List<LoggedEvent> rows = readAll(log, EventQuery.builder().limit(1_000).build());
                assertThat(rows).extracting(r -> r.envelope().eventId())
                        .isEqualTo(java.util.stream.IntStream.range(900, 1_000).mapToObj(i -> "m-" + i).toList());
            });
        }
    }

    @Test
    void retentionByAgeDeletesRowsLoggedBeforeTheCutoff() {
        TestClock clock = new TestClock(1_700_000_000_000L);
        EventLogOptions options = EventLogOptions.builder().instanceId("r").clock(clock)
                .retentionMaxAge(Duration.ofDays(1)).retentionInterval(Duration.ofMinutes(1)).build();
        try (EventLog log = open(options)) {
            for (int i = 0; i < 10; i++) {
                log.append(module(i, "m", "tick"));
            }
            assertThat(log.flush(FLUSH)).isTrue();
            clock.advance(Duration.ofHours(23).toMillis());
            for (int i = 10; i < 15; i++) {
                log.append(module(i, "m", "tick"));
            }
            assertThat(log.flush(FLUSH)).isTrue();
            assertThat(readAll(log, EventQuery.all())).hasSize(15);
            clock.advance(Duration.ofHours(2).toMillis());
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(readAll(log, EventQuery.all())).extracting(r -> r.envelope().eventId())
                            .containsExactly("m-10", "m-11", "m-12", "m-13", "m-14"));
        }
    }

    @Test
    void aTailDeliversCommittedRowsThenNewOnesEachOnceInSeqOrder() {
        try (EventLog log = open()) {
            for (int i = 0; i < 300; i++) {
                log.append(module(i, i % 2 == 0 ? "even" : "odd", "tick"));
            }
            assertThat(log.flush(FLUSH)).isTrue();
            long after = log.query(EventQuery.builder().limit(100).build()).events().get(99).seq();
            List<LoggedEvent> got = new CopyOnWriteArrayList<>();
            EventQuery from = EventQuery.builder().module("even").afterSeq(after).limit(16).build();
            try (Subscription tail = log.subscribe(from, got::add)) {
                for (int i = 300; i < 600; i++) {
                    log.append(module(i, i % 2 == 0 ? "even" : "odd", "tick"));
                }
                List<String> expected = java.util.stream.IntStream.range(100, 600).filter(i -> i % 2 == 0)
                        .mapToObj(i -> "m-" + i).toList();
                await().atMost(Duration.ofSeconds(60)).until(() -> got.size() >= expected.size());
                assertThat(got).extracting(r -> r.envelope().eventId()).isEqualTo(expected);
                assertThat(tail.isClosed()).isFalse();
            }
        }
    }

    @Test
    void aMobEventTailDeliversCommittedEventsThenNewOnesEachOnceInCursorOrder() throws Exception {
        try (EventLog log = open(EventLogOptions.builder().instanceId("test-instance")
                .tailPollInterval(Duration.ofDays(1)).build())) {
            for (int c = 1; c <= 40; c++) {
                log.appendMobEvent(mobEvent(c));
            }
            assertThat(log.flush(FLUSH)).isTrue();
            List<MobStructuralEventEnvelope> got = new CopyOnWriteArrayList<>();
            try (Subscription tail = log.subscribeMobEvents(new MobEventQuery("mob-a", null, null, 10, 3), got::add)) {
                for (int c = 41; c <= 60; c++) {
                    log.appendMobEvent(mobEvent(c));
                    log.appendMobEvent(mobEvent(c - 30)); // logged already: kept and sent once
                }
                List<Long> expected = java.util.stream.LongStream.rangeClosed(11, 60).filter(c -> c % 2 == 0)
                        .boxed().toList();
                await().atMost(Duration.ofSeconds(60)).until(() -> got.size() >= expected.size());
                assertThat(got).extracting(MobStructuralEventEnvelope::cursor).isEqualTo(expected);
                assertThat(tail.isClosed()).isFalse();
            }
        }
    }

    private static MobStructuralEventEnvelope mobEvent(int cursor) throws Exception {
        return MobEventProjection.project(new MobEvent(cursor, cursor % 2 == 0 ? "mob-a" : "mob-b", 5_000 + cursor,
                "FlowStarted", json("{\"n\":" + cursor + "}"), null, null, null, null, null));
    }

    @Test
    void mobEventsAreKeptOncePerMobAndCursorAndQueriedByKindAndMob() throws Exception {
        try (EventLog log = open()) {
            for (int c = 1; c <= 30; c++) {
                MobEvent upstream = new MobEvent(c, c % 2 == 0 ? "mob-a" : "mob-b", 5_000 + c,
                        c % 3 == 0 ? "MemberSpawned" : "FlowStarted", json("{\"n\":" + c + "}"),
                        "run-" + (c % 4), null, "agent-" + c, Map.of("team", "blue"), Map.of());
                log.appendMobEvent(MobEventProjection.project(upstream));
            }
            MobStructuralEventEnvelope again = MobEventProjection.project(new MobEvent(4, "mob-a", 1, "Other",
                    json("{}"), null, null, null, null, null));
            log.appendMobEvent(again);
            assertThat(log.flush(FLUSH)).isTrue();
            MobEventPage all = log.mobEvents(new MobEventQuery(null, null, null, -1, 1_000));
            assertThat(all.events()).extracting(MobStructuralEventEnvelope::cursor)
                    .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 30).boxed().toList());
            assertThat(all.events().get(3).kind()).isEqualTo("flow_started");
            MobEventPage spawnedA = log.mobEvents(new MobEventQuery("mob-a", "member_spawned", null, -1, 2));
            assertThat(spawnedA.events()).extracting(MobStructuralEventEnvelope::cursor).containsExactly(6L, 12L);
            assertThat(spawnedA.nextAfterCursor()).isEqualTo(12L);
            MobEventPage rest = log.mobEvents(new MobEventQuery("mob-a", "member_spawned", null, 12, 100));
            assertThat(rest.events()).extracting(MobStructuralEventEnvelope::cursor).containsExactly(18L, 24L, 30L);
            assertThat(rest.nextAfterCursor()).isNull();
            MobStructuralEventEnvelope six = spawnedA.events().get(0);
            assertThat(six.eventId()).isEqualTo("mob-evt-6");
            assertThat(six.mobLabels()).isEqualTo(Map.of("team", "blue"));
            assertThat(six.data().get("creation").get("provenance").get("kind").textValue())
                    .isEqualTo("legacy_unknown");
        }
    }

    @Test
    void rowsFromConcurrentAppendersAllArriveWithDistinctSeqs() throws Exception {
        try (EventLog log = open()) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int base = t * 10_000;
                Thread thread = new Thread(() -> {
                    for (int i = 0; i < 2_500; i++) {
                        log.append(module(base + i, "m", "tick"));
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(log.flush(FLUSH)).isTrue();
            List<LoggedEvent> rows = readAll(log, EventQuery.builder().limit(10_000).build());
            assertThat(rows).hasSize(10_000);
            Set<Long> seqs = new HashSet<>();
            Set<String> ids = new HashSet<>();
            rows.forEach(r -> {
                seqs.add(r.seq());
                ids.add(r.envelope().eventId());
            });
            assertThat(seqs).hasSize(10_000);
            assertThat(ids).hasSize(10_000);
        }
    }
}
