package org.metaruntime.supervisor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when a test advances it. Thread-safe. */
final class ManualClock extends Clock {

    private volatile Instant now;

    ManualClock(Instant start) {
        this.now = start;
    }

    ManualClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    synchronized void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a manual clock has one zone");
    }
}
