package org.metaruntime.events.spi;

import java.util.function.Consumer;
import org.metaruntime.events.MobEvent;
import org.metaruntime.events.Subscription;

/**
 * The host's upstream mob-event ledger, which the runtime's structural subscriber
 * ({@link org.metaruntime.events.MobEventProjector}) reads. Implementations must be thread-safe.
 *
 * <pre>{@code
 * MobEventSource source = new MobEventSource() {
 *     public long latestCursor() { return ledger.lastCursor(); }
 *     public boolean retains(long cursor) { return cursor >= ledger.firstCursor() - 1; }
 *     public Subscription subscribeAfter(long cursor, Consumer<MobEvent> consumer) {
 *         return ledger.tail(cursor, consumer);
 *     }
 * };
 * }</pre>
 */
public interface MobEventSource {

    /** The cursor of the newest event in the ledger (the cursor to subscribe after to get only new ones). */
    long latestCursor();

    /**
     * Delivers every event with a cursor greater than {@code cursor}, in cursor order, first those the ledger
     * holds and then new ones, until the subscription is closed. {@code consumer} is called from one thread at
     * a time.
     */
    Subscription subscribeAfter(long cursor, Consumer<MobEvent> consumer);

    /**
     * Whether the ledger still holds every event after {@code cursor}, so that resuming after it skips
     * nothing; false for a stale cursor (older than what the ledger retains, or from another ledger).
     */
    boolean retains(long cursor);
}
