package org.metaruntime.supervisor;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A point in time a wait must not pass, from a timeout measured on a monotonic nanosecond ticker
 * ({@link System#nanoTime()} unless one is injected). A timeout longer than {@link #MAX_TIMEOUT} (100 years) is
 * clamped to it, so {@code Duration.ofDays(365_000)} means "practically never" instead of overflowing.
 * Immutable and thread-safe when its ticker is.
 *
 * <pre>{@code
 * Deadline deadline = Deadline.after(Duration.ofSeconds(5));
 * Outcome outcome = future.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
 * if (deadline.isExpired()) {
 *     throw timeout(deadline.timeout());
 * }
 * }</pre>
 */
public final class Deadline {

    /** The longest timeout a deadline keeps; longer ones are clamped to it. */
    public static final Duration MAX_TIMEOUT = Duration.ofDays(365L * 100);

    private final LongSupplier ticker;
    private final Duration timeout;
    private final long startNanos;
    private final long timeoutNanos;

    private Deadline(Duration timeout, LongSupplier ticker) {
        this.ticker = ticker;
        this.timeout = clamp(timeout);
        this.timeoutNanos = this.timeout.toNanos();
        this.startNanos = ticker.getAsLong();
    }

    /**
     * The deadline {@code timeout} from now on {@link System#nanoTime()}.
     *
     * @throws IllegalArgumentException if {@code timeout} is zero or negative
     */
    public static Deadline after(Duration timeout) {
        return after(timeout, System::nanoTime);
    }

    /**
     * The deadline {@code timeout} from now on {@code ticker} (a monotonic nanosecond count, as
     * {@link System#nanoTime()}).
     *
     * @throws IllegalArgumentException if {@code timeout} is zero or negative
     */
    public static Deadline after(Duration timeout, LongSupplier ticker) {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(ticker, "ticker");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return new Deadline(timeout, ticker);
    }

    /** {@code timeout}, or {@link #MAX_TIMEOUT} when it is longer. */
    public static Duration clamp(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        return timeout.compareTo(MAX_TIMEOUT) > 0 ? MAX_TIMEOUT : timeout;
    }

    /** The timeout this deadline was made from, clamped to {@link #MAX_TIMEOUT}. */
    public Duration timeout() {
        return timeout;
    }

    /** The timeout in whole milliseconds, as the {@link ProcessBoundaryError.Timeout} error reports it. */
    public long timeoutMs() {
        return timeout.toMillis();
    }

    /** The nanoseconds left, zero once the deadline has passed. */
    public long remainingNanos() {
        long elapsed = ticker.getAsLong() - startNanos;
        return elapsed >= timeoutNanos ? 0L : timeoutNanos - elapsed;
    }

    /** The time left, zero once the deadline has passed. */
    public Duration remaining() {
        return Duration.ofNanos(remainingNanos());
    }

    /** Whether the deadline has passed. */
    public boolean isExpired() {
        return remainingNanos() == 0L;
    }

    @Override
    public String toString() {
        return "Deadline[timeout " + timeout + ", remaining " + remaining() + "]";
    }
}
