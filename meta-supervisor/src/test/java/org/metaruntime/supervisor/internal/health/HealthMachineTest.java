package org.metaruntime.supervisor.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.metaruntime.supervisor.ModuleHealthState.FAILED;
import static org.metaruntime.supervisor.ModuleHealthState.HEALTHY;
import static org.metaruntime.supervisor.ModuleHealthState.RESTARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STARTING;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.ModuleHealthTransition;

class HealthMachineTest {

    private final List<String> told = new ArrayList<>();

    @Test
    void eachMoveIsCheckedStampedAndToldOnlyWhenDelivered() {
        Clock clock = Clock.fixed(Instant.ofEpochMilli(42), ZoneOffset.UTC);
        HealthMachine machine = new HealthMachine("m", clock, t -> told.add("t" + t));

        ModuleHealthTransition first = machine.move(STARTING, 0);
        machine.later("extra", () -> told.add("extra"));
        machine.move(HEALTHY, 1);

        assertThat(first).isEqualTo(new ModuleHealthTransition("m", null, STARTING, 0, 42));
        assertThat(told).isEmpty();
        assertThat(machine.state()).isEqualTo(HEALTHY);
        assertThat(machine.attempt()).isEqualTo(1);

        machine.deliver();
        assertThat(told).containsExactly("t(m: null -> Starting, 0)", "extra", "t(m: Starting -> Healthy, 1)");
    }

    @Test
    void anIllegalMoveChangesNothing() {
        HealthMachine machine = new HealthMachine("m", Clock.systemUTC(), t -> told.add(t.toString()), FAILED, 2);

        assertThatThrownBy(() -> machine.move(HEALTHY, 3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'m'");
        assertThat(machine.state()).isEqualTo(FAILED);
        assertThat(machine.attempt()).isEqualTo(2);
        machine.deliver();
        assertThat(told).isEmpty();
    }

    @Test
    void aThrowingListenerNeverStopsTheLaterNotifications() {
        HealthMachine machine = new HealthMachine("m", Clock.systemUTC(), t -> {
            throw new IllegalStateException("bad listener");
        }, HEALTHY, 1);

        machine.move(FAILED, 2);
        machine.later("after", () -> told.add("after"));
        machine.move(RESTARTING, 2);
        machine.deliver();

        assertThat(told).containsExactly("after");
        assertThat(machine.state()).isEqualTo(RESTARTING);
    }
}
