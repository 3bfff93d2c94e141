package org.metaruntime.events;

import java.util.Objects;

/**
 * Unchecked carrier of a {@link NormalizationError}; its message is the error's sentence. The error it
 * carries is an immutable value, safe to read from any thread.
 *
 * <pre>{@code
 * try {
 *     store.insert(EventNormalizer.normalize(line));
 * } catch (NormalizationException e) {
 *     log.warn("module {}: {}", moduleId, e.error().message());
 * }
 * }</pre>
 */
public class NormalizationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient NormalizationError error;

    /**
     * An exception carrying {@code error}, with the error's message as its own.
     *
     * @param error the normalisation error
     */
    public NormalizationException(NormalizationError error) {
        super(Objects.requireNonNull(error, "error").message());
        this.error = error;
    }

    /**
     * The error as a value.
     *
     * @return the error this exception carries
     */
    public NormalizationError error() {
        return error;
    }
}
