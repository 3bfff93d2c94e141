package org.metaruntime.gateway.internal.manifest;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Manifest durations: a positive whole number with a unit, {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}. */
public final class Durations {

    private static final Pattern DURATION = Pattern.compile("^([0-9]{1,9})(ms|s|m|h)$");

    private Durations() {
    }

    /** The duration {@code text} names, or empty when it is not a positive duration in that form. */
    public static Optional<Duration> parse(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        long amount = Long.parseLong(m.group(1));
        if (amount == 0) {
            return Optional.empty();
        }
        switch (m.group(2)) {
            case "ms":
                return Optional.of(Duration.ofMillis(amount));
            case "s":
                return Optional.of(Duration.ofSeconds(amount));
            case "m":
                return Optional.of(Duration.ofMinutes(amount));
            default:
                return Optional.of(Duration.ofHours(amount));
        }
    }
}
