package org.metaruntime.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.InvalidOptionException;

class OptionChecksTest {

    @Test
    void aValueInRangeIsReturned() {
        assertThat(OptionChecks.positive(Duration.ofMillis(1), "timeout")).isEqualTo(Duration.ofMillis(1));
        assertThat(OptionChecks.nonNegative(Duration.ZERO, "grace")).isEqualTo(Duration.ZERO);
        assertThat(OptionChecks.nonNegative(0, "restarts")).isZero();
        assertThat(OptionChecks.nonNegative(0L, "rows")).isZero();
        assertThat(OptionChecks.atLeast(1, 1, "depth")).isEqualTo(1);
        assertThat(OptionChecks.atLeast(1024L, 1024L, "bytes")).isEqualTo(1024L);
    }

    @Test
    void aValueOutOfRangeIsRefusedInOneWordingNamingTheField() {
        assertThatThrownBy(() -> OptionChecks.positive(Duration.ZERO, "timeout"))
                .isExactlyInstanceOf(InvalidOptionException.class)
                .hasMessage("invalid configuration at timeout: must be positive, got PT0S");
        assertThatThrownBy(() -> OptionChecks.nonNegative(Duration.ofMillis(-1), "grace"))
                .hasMessage("invalid configuration at grace: must not be negative, got PT-0.001S");
        assertThatThrownBy(() -> OptionChecks.nonNegative(-1, "restarts"))
                .hasMessage("invalid configuration at restarts: must not be negative, got -1");
        assertThatThrownBy(() -> OptionChecks.nonNegative(-1L, "rows"))
                .hasMessage("invalid configuration at rows: must not be negative, got -1");
        assertThatThrownBy(() -> OptionChecks.atLeast(0, 1, "depth"))
                .hasMessage("invalid configuration at depth: must be at least 1, got 0");
        assertThatThrownBy(() -> OptionChecks.atLeast(10L, 1024L, "bytes"))
                .hasMessage("invalid configuration at bytes: must be at least 1024, got 10");
    }

    @Test
    void aMissingDurationIsANullPointerNamingTheField() {
        assertThatThrownBy(() -> OptionChecks.positive(null, "timeout")).isExactlyInstanceOf(NullPointerException.class)
                .hasMessage("timeout");
        assertThatThrownBy(() -> OptionChecks.nonNegative((Duration) null, "grace"))
                .isExactlyInstanceOf(NullPointerException.class).hasMessage("grace");
    }
}
