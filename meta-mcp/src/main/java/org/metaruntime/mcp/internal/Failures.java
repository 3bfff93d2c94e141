package org.metaruntime.mcp.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** How a future's failure is read: the cause inside the wrappers the futures add. Stateless. */
public final class Failures {

    private Failures() {
    }

    /** {@code failure} without its {@link CompletionException} and {@link ExecutionException} wrappers. */
    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
