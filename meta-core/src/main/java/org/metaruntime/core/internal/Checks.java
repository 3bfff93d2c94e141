package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.Objects;
import org.metaruntime.core.ConfigException;

/** Validation helpers that throw {@link ConfigException} naming the field. */
public final class Checks {

    private Checks() {
    }

    /** {@code value} when it is positive. */
    public static Duration positive(Duration value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isNegative() || value.isZero()) {
            throw new ConfigException(field, "the duration must be positive, got " + value);
        }
        return value;
    }

    /** {@code value} when it is zero or positive. */
    public static Duration nonNegative(Duration value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isNegative()) {
            throw new ConfigException(field, "the duration must not be negative, got " + value);
        }
        return value;
    }

    /** {@code value} when it is at least {@code min}. */
    public static int atLeast(int value, int min, String field) {
        if (value < min) {
            throw new ConfigException(field, "the value must be at least " + min + ", got " + value);
        }
        return value;
    }
}
