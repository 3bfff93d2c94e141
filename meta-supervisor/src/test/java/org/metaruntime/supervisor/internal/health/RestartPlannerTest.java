package org.metaruntime.supervisor.internal.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.SupervisionOptions;
import org.metaruntime.supervisor.internal.manual.ManualClock;

class RestartPlannerTest {

    private final ManualClock clock = new ManualClock();
    private final SupervisionOptions options = SupervisionOptions.builder().initialBackoff(Duration.ofMillis(100))
            .multiplier(2.0).maxBackoff(Duration.ofSeconds(10)).jitter(0.0).maxRestarts(2)
            .restartWindow(Duration.ofSeconds(60)).build();
    private final RestartPlanner planner = new RestartPlanner(options, clock, () -> 0.5);

    @Test
    void theDelayGrowsWithTheRestartsInTheWindowAndStopsBeyondTheIntensity() {
        assertThat(planner.next()).hasValue(Duration.ofMillis(100));
        assertThat(planner.next()).hasValue(Duration.ofMillis(200));
        assertThat(planner.next()).isEmpty();
        assertThat(planner.intensity()).isEqualTo("more than 2 restarts in PT1M");

        clock.advance(Duration.ofSeconds(60));
        assertThat(planner.next()).as("a window later the count starts again").hasValue(Duration.ofMillis(100));
    }

    @Test
    void resetStartsAFreshWindow() {
        planner.next();
        planner.next();
        planner.reset();

        assertThat(planner.next()).hasValue(Duration.ofMillis(100));
    }
}
