package org.metaruntime.supervisor.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.SupervisionOptions;

class BackoffTest {

    private final SupervisionOptions noJitter = SupervisionOptions.builder()
            .initialBackoff(Duration.ofMillis(100))
            .multiplier(2.0)
            .maxBackoff(Duration.ofSeconds(1))
            .jitter(0.0)
            .build();

    @Test
    void growsExponentiallyUpToTheCap() {
        assertThat(Backoff.delay(noJitter, 0, 0.3)).isEqualTo(Duration.ofMillis(100));
        assertThat(Backoff.delay(noJitter, 1, 0.3)).isEqualTo(Duration.ofMillis(200));
        assertThat(Backoff.delay(noJitter, 2, 0.3)).isEqualTo(Duration.ofMillis(400));
        assertThat(Backoff.delay(noJitter, 3, 0.3)).isEqualTo(Duration.ofMillis(800));
        assertThat(Backoff.delay(noJitter, 4, 0.3)).isEqualTo(Duration.ofSeconds(1));
        assertThat(Backoff.delay(noJitter, 1000, 0.3)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void jitterSpreadsTheDelayWithinItsFraction() {
        SupervisionOptions options = noJitter.toBuilder().jitter(0.2).build();

        assertThat(Backoff.delay(options, 1, 0.0)).isEqualTo(Duration.ofMillis(160));
        assertThat(Backoff.delay(options, 1, 0.5)).isEqualTo(Duration.ofMillis(200));
        assertThat(Backoff.delay(options, 1, 0.75)).isEqualTo(Duration.ofMillis(220));
        for (double random = 0.0; random < 1.0; random += 0.01) {
            assertThat(Backoff.delay(options, 2, random))
                    .isBetween(Duration.ofMillis(320), Duration.ofMillis(480));
        }
    }

    @Test
    void jitterNeverGoesAboveTheCap() {
        SupervisionOptions options = noJitter.toBuilder().jitter(1.0).build();

        assertThat(Backoff.delay(options, 10, 0.999)).isEqualTo(Duration.ofSeconds(1));
        assertThat(Backoff.delay(options, 10, 0.0)).isEqualTo(Duration.ZERO);
    }

    @Test
    void zeroInitialBackoffRestartsAtOnce() {
        SupervisionOptions options = SupervisionOptions.builder().initialBackoff(Duration.ZERO).build();

        assertThat(Backoff.delay(options, 3, 0.9)).isEqualTo(Duration.ZERO);
    }

    @Test
    void refusesValuesOutOfRange() {
        assertThatThrownBy(() -> Backoff.delay(noJitter, -1, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Backoff.delay(noJitter, 0, 1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Backoff.delay(noJitter, 0, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
