package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.Objects;
import org.metaruntime.core.CallOptions;

/**
 * One call as the boundaries see it: its effective timeout and its options.
 *
 * @param timeout the call's timeout, already clamped and rounded
 * @param options the caller's options (progress listener, timeout reset)
 */
public record CallSpec(Duration timeout, CallOptions options) {
    public CallSpec {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(options, "options");
    }

    /** A call with only a timeout. */
    public static CallSpec of(Duration timeout) {
        return new CallSpec(timeout, CallOptions.defaults());
    }
}
