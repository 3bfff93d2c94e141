package org.metaruntime.events;

import java.util.Objects;

/** Unchecked carrier of a {@link NormalizationError}; its message is the error's sentence. */
public class NormalizationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient NormalizationError error;

    /** An exception carrying {@code error}. */
    public NormalizationException(NormalizationError error) {
        super(Objects.requireNonNull(error, "error").message());
        this.error = error;
    }

    /** The error as a value. */
    public NormalizationError error() {
        return error;
    }
}
