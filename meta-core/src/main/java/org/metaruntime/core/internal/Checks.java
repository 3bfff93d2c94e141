package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.function.Supplier;
import org.metaruntime.core.ConfigException;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * The range checks of {@link OptionChecks}, refusing a value with a {@link ConfigException} naming the field, as
 * meta-core's configuration does.
 */
public final class Checks {

    private Checks() {
    }

    /** {@code value} when it is positive. */
    public static Duration positive(Duration value, String field) {
        return configured(() -> OptionChecks.positive(value, field), "the duration ");
    }

    /** {@code value} when it is zero or positive. */
    public static Duration nonNegative(Duration value, String field) {
        return configured(() -> OptionChecks.nonNegative(value, field), "the duration ");
    }

    /** {@code value} when it is zero or more. */
    public static int nonNegative(int value, String field) {
        return configured(() -> OptionChecks.nonNegative(value, field), "the value ");
    }

    /** {@code value} when it is at least {@code min}. */
    public static int atLeast(int value, int min, String field) {
        return configured(() -> OptionChecks.atLeast(value, min, field), "the value ");
    }

    private static <T> T configured(Supplier<T> check, String subject) {
        try {
            return check.get();
        } catch (InvalidOptionException refused) {
            throw new ConfigException(refused.field(), subject + refused.problem());
        }
    }
}
