package org.metaruntime.events;

/**
 * An {@link EventLog} could not read or write its storage (for example the database is unreachable). The
 * message says what failed; the cause is the storage error.
 */
public final class EventLogException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** An error with its one-sentence message and cause. */
    public EventLogException(String message, Throwable cause) {
        super(message, cause);
    }
}
