package org.metaruntime.supervisor.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.metaruntime.supervisor.ModuleHealthState.FAILED;
import static org.metaruntime.supervisor.ModuleHealthState.HEALTHY;
import static org.metaruntime.supervisor.ModuleHealthState.RESTARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STOPPED;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;

class HealthTransitionsTest {

    @Test
    void theTableHoldsExactlyTheLegalTransitions() {
        Set<List<ModuleHealthState>> legal = new HashSet<>();
        List<ModuleHealthState> froms = new ArrayList<>(Arrays.asList(ModuleHealthState.values()));
        froms.add(null);
        for (ModuleHealthState from : froms) {
            for (ModuleHealthState to : ModuleHealthState.values()) {
                if (HealthTransitions.isLegal(from, to)) {
                    legal.add(Arrays.asList(from, to));
                }
            }
        }
        assertThat(legal).containsExactlyInAnyOrder(
                Arrays.asList(null, STARTING),
                List.of(STARTING, HEALTHY), List.of(STARTING, FAILED), List.of(STARTING, STOPPED),
                List.of(HEALTHY, RESTARTING), List.of(HEALTHY, FAILED),
                List.of(FAILED, RESTARTING), List.of(FAILED, STOPPED),
                List.of(RESTARTING, HEALTHY), List.of(RESTARTING, FAILED), List.of(RESTARTING, STOPPED),
                List.of(STOPPED, RESTARTING));
    }

    @Test
    void illegalTransitionsAreRefused() {
        assertThat(HealthTransitions.isLegal(null, HEALTHY)).isFalse();
        assertThat(HealthTransitions.isLegal(STOPPED, HEALTHY)).isFalse();
        assertThat(HealthTransitions.isLegal(HEALTHY, HEALTHY)).isFalse();
        assertThat(HealthTransitions.isLegal(STARTING, RESTARTING)).isFalse();
        assertThat(HealthTransitions.isLegal(FAILED, HEALTHY)).isFalse();
        assertThat(HealthTransitions.isLegal(HEALTHY, STARTING)).isFalse();
    }

    @Test
    void requireLegalThrowsIllegalStateForABug() {
        ModuleHealthTransition legal = new ModuleHealthTransition("m", FAILED, RESTARTING, 1);
        assertThat(HealthTransitions.requireLegal(legal)).isSameAs(legal);
        assertThatThrownBy(() -> HealthTransitions.requireLegal(new ModuleHealthTransition("m", STOPPED, HEALTHY, 2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("module 'm'")
                .hasMessageContaining("Stopped -> Healthy");
    }

    @Test
    void legalTargetsAreUnmodifiable() {
        assertThatThrownBy(() -> HealthTransitions.legalTargets(HEALTHY).add(STARTING))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(HealthTransitions.legalTargets(null)).containsExactly(STARTING);
    }
}
