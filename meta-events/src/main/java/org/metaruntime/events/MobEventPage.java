package org.metaruntime.events;

import java.util.List;
import java.util.Objects;

/**
 * One page of structural mob events. Immutable.
 *
 * @param events          the events, in cursor order
 * @param nextAfterCursor the {@code afterCursor} of the next page, or null when this is the last page
 */
public record MobEventPage(List<MobStructuralEventEnvelope> events, Long nextAfterCursor) {

    /** Copies the events. */
    public MobEventPage {
        events = List.copyOf(Objects.requireNonNull(events, "events"));
    }
}
