package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.events.TestEvents.agent;
import static org.metaruntime.events.TestEvents.module;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EventsTest {

    @Test
    void ordersByTimestampThenEventIdThenSource() {
        EventEnvelope<UnifiedEvent> late = module("a", 2);
        EventEnvelope<UnifiedEvent> earlyB = module("b", 1);
        EventEnvelope<UnifiedEvent> earlyA = agent("b", 1);
        EventEnvelope<UnifiedEvent> earliest = agent("z", 0);
        List<EventEnvelope<UnifiedEvent>> list = new ArrayList<>(List.of(late, earlyB, earlyA, earliest));
        list.sort(Events.order());
        // Same time and id: "agent" < "module" by source, not by any agent-first rule.
        assertThat(list).containsExactly(earliest, earlyA, earlyB, late);
    }

    @Test
    void timestampsCompareNumericallyNotAsText() {
        assertThat(Events.order().compare(module("a", 9), module("a", 10))).isNegative();
        assertThat(Events.order().compare(module("a", Long.MAX_VALUE), module("a", 0))).isPositive();
    }

    @Test
    void noAgentBeforeModuleRule() {
        // Same time: the id decides, whatever the source.
        assertThat(Events.order().compare(module("a", 5), agent("b", 5))).isNegative();
        assertThat(Events.order().compare(agent("b", 5), module("a", 5))).isPositive();
    }

    @Test
    void stringsCompareByCodePointNotByUtf16Unit() {
        String supplementary = "\uD83D\uDE00"; // U+1F600
        String halfwidth = "\uFF61";          // U+FF61
        assertThat(supplementary.compareTo(halfwidth)).isNegative(); // what String.compareTo says
        assertThat(Events.compareCodePoints(supplementary, halfwidth)).isPositive();
        assertThat(Events.order().compare(module(supplementary, 1), module(halfwidth, 1))).isPositive();
        assertThat(Events.compareCodePoints("x" + supplementary, "x\uFFFF")).isPositive();
        assertThat(Events.compareCodePoints("a", "ab")).isNegative();
        assertThat(Events.compareCodePoints("", "")).isZero();
        assertThat(Events.compareCodePoints("ab", "ab")).isZero();
    }

    @Test
    void codePointOrderIsTheOrderOfUtf8Bytes() {
        Random random = new Random(7);
        String[] alphabet = {"a", "z", "\u00e9", "\u4e2d", "\uFF61", "\uFFFF", "\uE000", "\uD83D\uDE00",
                "\uD800\uDC00", "\uDBFF\uDFFF", ""};
        for (int n = 0; n < 20_000; n++) {
            String a = randomString(random, alphabet);
            String b = randomString(random, alphabet);
            int expected = Integer.signum(Arrays.compareUnsigned(
                    a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
            assertThat(Integer.signum(Events.compareCodePoints(a, b))).as("%s vs %s", a, b).isEqualTo(expected);
        }
    }

    @Test
    void loneSurrogatesCountAsTheirOwnCodePoint() {
        assertThat(Events.compareCodePoints("\uD800", "\uE000")).isNegative();
        assertThat(Events.compareCodePoints("\uD800", "\uD800\uDC00")).isNegative();
        assertThat(Events.compareCodePoints("\uD800a", "\uD800\uDC00")).isNegative();
        assertThat(Events.compareCodePoints("\uD800\uDC00", "\uD800a")).isPositive();
        assertThat(Events.compareCodePoints("\uDC00", "\uD7FF")).isPositive();
    }

    @Test
    void mergePutsModuleEventsBeforeAgentEventsAmongEqualKeysAndIsStable() {
        EventEnvelope<UnifiedEvent> m1 = EventEnvelope.module("same", 5, "m1", "t", null);
        EventEnvelope<UnifiedEvent> m2 = EventEnvelope.module("same", 5, "m2", "t", null);
        EventEnvelope<UnifiedEvent> a1 = module("same", 5); // equal key, from the "agent" list
        EventEnvelope<UnifiedEvent> a0 = agent("x", 1);
        EventEnvelope<UnifiedEvent> m0 = module("y", 9);
        List<EventEnvelope<UnifiedEvent>> merged = Events.mergeUnifiedEvents(List.of(m1, m0, m2), List.of(a1, a0));
        assertThat(merged).containsExactly(a0, m1, m2, a1, m0);
    }

    @Test
    void mergeOfSortedListsEqualsTheStableSortOfTheConcatenation() {
        Random random = new Random(9);
        for (int round = 0; round < 200; round++) {
            List<EventEnvelope<UnifiedEvent>> modules = randomList(random, round % 2 == 0);
            List<EventEnvelope<UnifiedEvent>> agents = randomList(random, round % 3 != 0);
            List<EventEnvelope<UnifiedEvent>> expected = new ArrayList<>(modules);
            expected.addAll(agents);
            expected.sort(Events.order());
            assertThat(Events.mergeUnifiedEvents(modules, agents)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void mergeRejectsNullElements() {
        List<EventEnvelope<UnifiedEvent>> withNull = Arrays.asList(module("a", 1), null, module("b", 2));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Events.mergeUnifiedEvents(withNull, List.of()))
                .isInstanceOf(NullPointerException.class);
    }

    private static List<EventEnvelope<UnifiedEvent>> randomList(Random random, boolean sorted) {
        List<EventEnvelope<UnifiedEvent>> list = new ArrayList<>();
        int size = random.nextInt(30);
        for (int i = 0; i < size; i++) {
            list.add(EventEnvelope.module("id" + random.nextInt(3), random.nextInt(10), "m" + i, "t", null));
        }
        if (sorted) {
            list.sort(Events.order());
        }
        return list;
    }

    @Test
    void mergeOfSortedListsIsSortedAndComplete() {
        List<EventEnvelope<UnifiedEvent>> modules = new ArrayList<>();
        List<EventEnvelope<UnifiedEvent>> agents = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            modules.add(module("m" + i, i * 2L));
            agents.add(agent("a" + i, i * 3L));
        }
        List<EventEnvelope<UnifiedEvent>> merged = Events.mergeUnifiedEvents(modules, agents);
        assertThat(merged).hasSize(2000).isSortedAccordingTo(Events.order());
        merged.add(module("extra", 0)); // the caller owns a mutable list
    }

    @Test
    void insertGoesAfterEveryEqualKey() {
        EventEnvelope<UnifiedEvent> first = EventEnvelope.module("k", 5, "first", "t", null);
        EventEnvelope<UnifiedEvent> second = EventEnvelope.module("k", 5, "second", "t", null);
        EventEnvelope<UnifiedEvent> third = EventEnvelope.module("k", 5, "third", "t", null);
        List<EventEnvelope<UnifiedEvent>> list = new ArrayList<>(List.of(module("a", 1), first, second, module("z", 9)));
        Events.insertEventSorted(list, third);
        assertThat(list).extracting(e -> e.eventId() + "@" + e.timestampMs())
                .containsExactly("a@1", "k@5", "k@5", "k@5", "z@9");
        assertThat(list.get(3)).isSameAs(third);
    }

    @Test
    void insertKeepsARandomListSortedLikeAStableSort() {
        Random random = new Random(11);
        List<EventEnvelope<UnifiedEvent>> inserted = new ArrayList<>();
        List<EventEnvelope<UnifiedEvent>> all = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            EventEnvelope<UnifiedEvent> e = EventEnvelope.module("id" + random.nextInt(5), random.nextInt(50),
                    "m" + i, "t", null);
            Events.insertEventSorted(inserted, e);
            all.add(e);
        }
        List<EventEnvelope<UnifiedEvent>> expected = new ArrayList<>(all);
        Collections.sort(expected, Events.order()); // stable
        assertThat(inserted).containsExactlyElementsOf(expected);
    }

    @Test
    void insertIntoAnEmptyListAndAtTheFront() {
        List<EventEnvelope<UnifiedEvent>> list = new ArrayList<>();
        Events.insertEventSorted(list, module("b", 2));
        Events.insertEventSorted(list, module("a", 1));
        assertThat(list).extracting(EventEnvelope::eventId).containsExactly("a", "b");
    }

    private static String randomString(Random random, String[] alphabet) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(4);
        for (int i = 0; i < length; i++) {
            s.append(alphabet[random.nextInt(alphabet.length)]);
        }
        return s.toString();
    }
}
