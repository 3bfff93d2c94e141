package org.metaruntime.events;

/**
 * Which structural mob events {@link EventLog#mobEvents} and {@link MobEventProjector#mobEvents} return: those
 * matching every non-null criterion whose cursor is after {@code afterCursor}, in cursor order, at most
 * {@code limit}. Cursors are those of one upstream ledger. Immutable.
 *
 * <pre>{@code
 * MobEventPage spawned = projector.mobEvents(new MobEventQuery("mob-1", "member_spawned", null, -1, 100));
 * }</pre>
 *
 * @param mobId       only this mob, or null
 * @param kind        only this snake_case kind, or null
 * @param runId       only this run, or null
 * @param afterCursor only events with a greater cursor; -1 for all
 * @param limit       at most this many, 1 to {@link EventQuery#MAX_LIMIT}
 */
public record MobEventQuery(String mobId, String kind, String runId, long afterCursor, int limit) {

    /**
     * Validates the query.
     *
     * @throws IllegalArgumentException if {@code afterCursor < -1} or {@code limit} is outside 1..10,000
     */
    public MobEventQuery {
        if (afterCursor < -1) {
            throw new IllegalArgumentException("afterCursor must be -1 or more: " + afterCursor);
        }
        if (limit < 1 || limit > EventQuery.MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + EventQuery.MAX_LIMIT + ": " + limit);
        }
    }

    /** The first {@link EventQuery#DEFAULT_LIMIT} events of every mob. */
    public static MobEventQuery all() {
        return new MobEventQuery(null, null, null, -1, EventQuery.DEFAULT_LIMIT);
    }

    /** This query for the events after {@code cursor}. */
    public MobEventQuery withAfterCursor(long cursor) {
        return new MobEventQuery(mobId, kind, runId, cursor, limit);
    }

    /** Whether {@code event} matches the criteria (not the cursor bound). */
    public boolean matches(MobStructuralEventEnvelope event) {
        return (mobId == null || mobId.equals(event.mobId()))
                && (kind == null || kind.equals(event.kind()))
                && (runId == null || runId.equals(event.runId()));
    }
}
