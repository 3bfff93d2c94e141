package org.metaruntime.gateway.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;

/** A burst of triggers runs the action once, after the quiet time that follows the last trigger. */
class DebounceTest {

    private final ManualScheduler manual = new ManualScheduler();
    private final AtomicInteger runs = new AtomicInteger();
    private final Debounce debounce = new Debounce(manual, Duration.ofMillis(500), runs::incrementAndGet);

    @Test
    void aBurstRunsTheActionOnceItIsQuiet() {
        debounce.trigger();
        manual.advance(Duration.ofMillis(400));
        debounce.trigger();
        manual.advance(Duration.ofMillis(400));
        debounce.trigger();
        assertThat(runs).hasValue(0);
        assertThat(manual.pendingCount()).isEqualTo(1);
        manual.advance(Duration.ofMillis(499));
        assertThat(runs).hasValue(0);
        manual.advance(Duration.ofMillis(1));
        assertThat(runs).hasValue(1);
        assertThat(manual.pendingCount()).isZero();
    }

    @Test
    void aTriggerAfterTheRunRunsItAgain() {
        debounce.trigger();
        manual.advance(Duration.ofMillis(500));
        debounce.trigger();
        manual.advance(Duration.ofMillis(500));
        assertThat(runs).hasValue(2);
    }
}
