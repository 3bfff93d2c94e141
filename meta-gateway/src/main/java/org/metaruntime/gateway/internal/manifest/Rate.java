package org.metaruntime.gateway.internal.manifest;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rate limit of a profile: at most {@code burst} calls at once, refilled continuously at {@code tokens} per
 * {@code period} ({@code rate: 100/min, burst: 20}).
 *
 * @param tokens how many calls each period allows, at least 1
 * @param period one second, minute or hour
 * @param burst the most tokens a bucket holds, at least 1
 */
public record Rate(long tokens, Duration period, long burst) {

    private static final Pattern FORM = Pattern.compile("([1-9][0-9]{0,17})/(s|min|h)");

    public Rate {
        if (tokens < 1 || burst < 1) {
            throw new IllegalArgumentException("a rate needs at least one token and a burst of at least one");
        }
    }

    /** {@code N/s}, {@code N/min} or {@code N/h}, with N a positive integer; empty when {@code text} is not one. */
    public static Optional<Rate> parse(String text, Long burst) {
        Matcher m = text == null ? null : FORM.matcher(text);
        if (m == null || !m.matches()) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        Duration period = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(1);
            case "min" -> Duration.ofMinutes(1);
            default -> Duration.ofHours(1);
        };
        return Optional.of(new Rate(n, period, burst == null ? n : burst));
    }

    /** Nanoseconds one token takes to refill. */
    public double nanosPerToken() {
        return (double) period.toNanos() / tokens;
    }
}
