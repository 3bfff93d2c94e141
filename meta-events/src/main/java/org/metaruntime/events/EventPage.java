package org.metaruntime.events;

import java.util.List;
import java.util.Objects;

/**
 * One page of {@link EventLog#query(EventQuery)}: the rows in {@code seq} order and where the next page
 * starts. Immutable.
 *
 * <pre>{@code
 * EventPage page = log.query(EventQuery.all());
 * if (page.nextAfterSeq() != null) {
 *     EventPage next = log.query(EventQuery.all().withAfterSeq(page.nextAfterSeq()));
 * }
 * }</pre>
 *
 * @param events       the rows, in {@code seq} order
 * @param nextAfterSeq the {@code afterSeq} of the next page, or null when this is the last page (at the time
 *                     of the query; rows appended later appear after the last row's {@code seq})
 */
public record EventPage(List<LoggedEvent> events, Long nextAfterSeq) {

    /** Copies the rows. */
    public EventPage {
        events = List.copyOf(Objects.requireNonNull(events, "events"));
    }
}
