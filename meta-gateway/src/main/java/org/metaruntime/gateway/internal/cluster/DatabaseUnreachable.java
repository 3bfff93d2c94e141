package org.metaruntime.gateway.internal.cluster;

/** The shared database of the cluster cannot be reached now; the message says so for clients. */
public final class DatabaseUnreachable extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What clients are told. */
    public static final String MESSAGE = "the database of the cluster cannot be reached";

    public DatabaseUnreachable(Throwable cause) {
        super(MESSAGE + " (" + cause.getMessage() + ")", cause);
    }
}
