package org.metaruntime.supervisor.internal;

import java.time.Duration;
import java.util.Objects;
import org.metaruntime.supervisor.InvalidOptionException;

/**
 * The range checks of option values, for every module of the runtime: each returns the value when it is in range,
 * else throws an {@link InvalidOptionException} naming {@code field} (a null value is a
 * {@link NullPointerException} naming it). Stateless.
 *
 * <pre>{@code
 * this.timeout = OptionChecks.positive(timeout, "timeout");   // field "timeout": "must be positive, got PT0S"
 * }</pre>
 */
public final class OptionChecks {

    private OptionChecks() {
    }

    /** {@code value} when it is longer than zero. */
    public static Duration positive(Duration value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isNegative() || value.isZero()) {
            throw new InvalidOptionException(field, "must be positive, got " + value);
        }
        return value;
    }

    /** {@code value} when it is zero or longer. */
    public static Duration nonNegative(Duration value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isNegative()) {
            throw new InvalidOptionException(field, "must not be negative, got " + value);
        }
        return value;
    }

    /** {@code value} when it is zero or more. */
    public static int nonNegative(int value, String field) {
        if (value < 0) {
            throw new InvalidOptionException(field, "must not be negative, got " + value);
        }
        return value;
    }

    /** {@code value} when it is zero or more. */
    public static long nonNegative(long value, String field) {
        if (value < 0) {
            throw new InvalidOptionException(field, "must not be negative, got " + value);
        }
        return value;
    }

    /** {@code value} when it is at least {@code min}. */
    public static int atLeast(int value, int min, String field) {
        if (value < min) {
            throw new InvalidOptionException(field, "must be at least " + min + ", got " + value);
        }
        return value;
    }

    /** {@code value} when it is at least {@code min}. */
    public static long atLeast(long value, long min, String field) {
        if (value < min) {
            throw new InvalidOptionException(field, "must be at least " + min + ", got " + value);
        }
        return value;
    }
}
