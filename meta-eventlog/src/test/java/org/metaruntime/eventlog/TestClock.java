package org.metaruntime.eventlog;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand. */
final class TestClock extends Clock {

    private final AtomicLong millis;

    TestClock(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    void advance(long deltaMillis) {
        millis.addAndGet(deltaMillis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }
}
