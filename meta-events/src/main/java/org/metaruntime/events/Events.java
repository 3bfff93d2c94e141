package org.metaruntime.events;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The order of envelopes and the operations that keep lists in it. Stateless and thread-safe (the lists
 * passed in are not synchronised by these methods).
 *
 * <p>The order is {@code (timestampMs, eventId, source)}: timestamps numerically, strings by Unicode code
 * point (the order of their UTF-8 bytes, which differs from {@link String#compareTo} for characters above
 * U+FFFF). There is no agent-before-module rule.
 *
 * <pre>{@code
 * List<EventEnvelope<UnifiedEvent>> merged = Events.mergeUnifiedEvents(moduleEvents, agentEvents);
 * Events.insertEventSorted(merged, later);
 * }</pre>
 */
public final class Events {

    private static final Comparator<EventEnvelope<?>> ORDER = Events::compare;

    private Events() {
    }

    /** The envelope order: {@code (timestampMs, eventId, source)}, strings by code point. */
    public static Comparator<EventEnvelope<?>> order() {
        return ORDER;
    }

    /**
     * Merges module and agent envelopes: module events then agent events, stable-sorted by {@link #order()}
     * (among equal keys module events come first, each list keeping its own order).
     *
     * @return a new mutable list the caller owns
     */
    public static List<EventEnvelope<UnifiedEvent>> mergeUnifiedEvents(
            List<EventEnvelope<UnifiedEvent>> moduleEvents, List<EventEnvelope<UnifiedEvent>> agentEvents) {
        Objects.requireNonNull(moduleEvents, "moduleEvents");
        Objects.requireNonNull(agentEvents, "agentEvents");
        List<EventEnvelope<UnifiedEvent>> merged = new ArrayList<>(moduleEvents.size() + agentEvents.size());
        if (!mergeSorted(moduleEvents, agentEvents, merged)) {
            merged.clear();
            merged.addAll(moduleEvents);
            merged.addAll(agentEvents);
            merged.sort(ORDER); // stable
        }
        return merged;
    }

    /**
     * One linear merge of two sorted lists into {@code out}, taking the module event on equal keys (what
     * the stable sort of the concatenation does). Returns false as soon as either input turns out not to
     * be sorted.
     */
    private static boolean mergeSorted(List<EventEnvelope<UnifiedEvent>> moduleEvents,
            List<EventEnvelope<UnifiedEvent>> agentEvents, List<EventEnvelope<UnifiedEvent>> out) {
        Iterator<EventEnvelope<UnifiedEvent>> modules = moduleEvents.iterator();
        Iterator<EventEnvelope<UnifiedEvent>> agents = agentEvents.iterator();
        EventEnvelope<UnifiedEvent> module = nextOrNull(modules);
        EventEnvelope<UnifiedEvent> agent = nextOrNull(agents);
        while (module != null || agent != null) {
            boolean takeAgent = module == null || agent != null && compare(agent, module) < 0;
            Iterator<EventEnvelope<UnifiedEvent>> source = takeAgent ? agents : modules;
            EventEnvelope<UnifiedEvent> taken = takeAgent ? agent : module;
            out.add(taken);
            EventEnvelope<UnifiedEvent> next = nextOrNull(source);
            if (next != null && compare(taken, next) > 0) {
                return false;
            }
            if (takeAgent) {
                agent = next;
            } else {
                module = next;
            }
        }
        return true;
    }

    private static EventEnvelope<UnifiedEvent> nextOrNull(Iterator<EventEnvelope<UnifiedEvent>> it) {
        return it.hasNext() ? Objects.requireNonNull(it.next(), "envelope") : null;
    }

    /**
     * Inserts {@code envelope} into the sorted list {@code sorted} after every element with an equal or
     * smaller key. Appending costs O(1) when the envelope is not before the last element; otherwise the
     * position is found by binary search (for {@link RandomAccess} lists).
     */
    public static void insertEventSorted(
            List<EventEnvelope<UnifiedEvent>> sorted, EventEnvelope<UnifiedEvent> envelope) {
        Objects.requireNonNull(sorted, "sorted");
        Objects.requireNonNull(envelope, "envelope");
        int size = sorted.size();
        if (size == 0 || compare(sorted.get(size - 1), envelope) <= 0) {
            sorted.add(envelope);
            return;
        }
        sorted.add(upperBound(sorted, envelope), envelope);
    }

    /** The first index whose element sorts after {@code envelope} (the list size when none does). */
    static int upperBound(List<? extends EventEnvelope<?>> sorted, EventEnvelope<?> envelope) {
        int low = 0;
        int high = sorted.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (compare(sorted.get(mid), envelope) <= 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Compares two envelopes by {@link #order()}. */
    public static int compare(EventEnvelope<?> a, EventEnvelope<?> b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        int byTime = Long.compare(a.timestampMs(), b.timestampMs());
        if (byTime != 0) {
            return byTime;
        }
        int byId = compareCodePoints(a.eventId(), b.eventId());
        return byId != 0 ? byId : compareCodePoints(a.source(), b.source());
    }

    /**
     * Compares strings by Unicode code point, which is the order of their UTF-8 bytes. A lone surrogate
     * counts as its own code point.
     */
    public static int compareCodePoints(String a, String b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        int shared = Math.min(a.length(), b.length());
        int k = 0;
        while (k < shared && a.charAt(k) == b.charAt(k)) {
            k++;
        }
        if (k == shared) {
            return Integer.compare(a.length(), b.length());
        }
        char ca = a.charAt(k);
        char cb = b.charAt(k);
        if (!Character.isSurrogate(ca) && !Character.isSurrogate(cb)) {
            return Character.compare(ca, cb);
        }
        // Restart at the code point containing k and compare code point by code point.
        int i = k > 0 && Character.isHighSurrogate(a.charAt(k - 1)) ? k - 1 : k;
        int j = i;
        while (i < a.length() && j < b.length()) {
            int cpa = a.codePointAt(i);
            int cpb = b.codePointAt(j);
            if (cpa != cpb) {
                return Integer.compare(cpa, cpb);
            }
            i += Character.charCount(cpa);
            j += Character.charCount(cpb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
