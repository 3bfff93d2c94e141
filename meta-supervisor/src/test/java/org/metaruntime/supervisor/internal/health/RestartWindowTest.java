package org.metaruntime.supervisor.internal.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RestartWindowTest {

    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void allowsAtMostMaxRestartsInTheSlidingWindow() {
        RestartWindow window = new RestartWindow(2, Duration.ofSeconds(60));

        assertThat(window.tryRecord(t0)).isTrue();
        assertThat(window.tryRecord(t0.plusSeconds(10))).isTrue();
        assertThat(window.tryRecord(t0.plusSeconds(59))).isFalse();
        assertThat(window.count(t0.plusSeconds(59))).isEqualTo(2);
        // exactly one window after the first restart, it no longer counts
        assertThat(window.tryRecord(t0.plusSeconds(60))).isTrue();
        assertThat(window.tryRecord(t0.plusSeconds(61))).isFalse();
        assertThat(window.count(t0.plusSeconds(121))).isZero();
    }

    @Test
    void zeroMaxRestartsNeverAllowsARestart() {
        RestartWindow window = new RestartWindow(0, Duration.ofSeconds(1));

        assertThat(window.tryRecord(t0)).isFalse();
    }

    @Test
    void resetForgetsEveryRestart() {
        RestartWindow window = new RestartWindow(1, Duration.ofSeconds(60));
        window.tryRecord(t0);
        window.reset();

        assertThat(window.tryRecord(t0.plusSeconds(1))).isTrue();
    }
}
