package org.metaruntime.supervisor.internal.health;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;

/**
 * The table of legal health transitions ({@code from → to}), as data. Every transition the startup
 * procedure and the module supervisor record is checked against it; an illegal one is a bug and throws
 * {@link IllegalStateException}.
 *
 * <table>
 *   <caption>Legal transitions</caption>
 *   <tr><th>from</th><th>to</th><th>when</th></tr>
 *   <tr><td>(none)</td><td>Starting</td><td>a startup block begins</td></tr>
 *   <tr><td>Starting</td><td>Healthy, Failed</td><td>the first attempt ends</td></tr>
 *   <tr><td>Starting</td><td>Stopped</td><td>the startup was interrupted</td></tr>
 *   <tr><td>Healthy</td><td>Restarting</td><td>{@code ALWAYS} restart during startup, or a manual restart</td></tr>
 *   <tr><td>Healthy</td><td>Failed</td><td>the kept child failed after startup</td></tr>
 *   <tr><td>Failed</td><td>Restarting</td><td>a retry or restart is scheduled</td></tr>
 *   <tr><td>Failed</td><td>Stopped</td><td>the budget or the restart intensity is exhausted</td></tr>
 *   <tr><td>Restarting</td><td>Healthy, Failed</td><td>a restart attempt ends</td></tr>
 *   <tr><td>Restarting</td><td>Stopped</td><td>the startup was interrupted</td></tr>
 *   <tr><td>Stopped</td><td>Restarting</td><td>a manual restart</td></tr>
 * </table>
 *
 * <p>Stateless and thread-safe.
 *
 * <pre>{@code
 * HealthTransitions.isLegal(ModuleHealthState.FAILED, ModuleHealthState.RESTARTING); // true
 * HealthTransitions.isLegal(ModuleHealthState.STOPPED, ModuleHealthState.HEALTHY);   // false
 * }</pre>
 */
public final class HealthTransitions {

    private static final Set<ModuleHealthState> INITIAL = Collections.unmodifiableSet(EnumSet.of(ModuleHealthState.STARTING));
    private static final Map<ModuleHealthState, Set<ModuleHealthState>> TABLE = table();

    private HealthTransitions() {
    }

    private static Map<ModuleHealthState, Set<ModuleHealthState>> table() {
        Map<ModuleHealthState, Set<ModuleHealthState>> table = new EnumMap<>(ModuleHealthState.class);
        table.put(ModuleHealthState.STARTING,
                EnumSet.of(ModuleHealthState.HEALTHY, ModuleHealthState.FAILED, ModuleHealthState.STOPPED));
        table.put(ModuleHealthState.HEALTHY, EnumSet.of(ModuleHealthState.RESTARTING, ModuleHealthState.FAILED));
        table.put(ModuleHealthState.FAILED, EnumSet.of(ModuleHealthState.RESTARTING, ModuleHealthState.STOPPED));
        table.put(ModuleHealthState.RESTARTING,
                EnumSet.of(ModuleHealthState.HEALTHY, ModuleHealthState.FAILED, ModuleHealthState.STOPPED));
        table.put(ModuleHealthState.STOPPED, EnumSet.of(ModuleHealthState.RESTARTING));
        table.replaceAll((from, targets) -> Collections.unmodifiableSet(targets));
        return Collections.unmodifiableMap(table);
    }

    /**
     * The states reachable in one transition from {@code from}.
     *
     * @param from the current state, {@code null} before the first transition of a block
     */
    public static Set<ModuleHealthState> legalTargets(ModuleHealthState from) {
        return from == null ? INITIAL : TABLE.get(from);
    }

    /**
     * Whether {@code from → to} is a legal transition.
     *
     * @param from the current state, {@code null} before the first transition of a block
     * @param to   the next state
     */
    public static boolean isLegal(ModuleHealthState from, ModuleHealthState to) {
        Objects.requireNonNull(to, "to");
        return legalTargets(from).contains(to);
    }

    /**
     * Returns {@code transition} when it is legal.
     *
     * @throws IllegalStateException when the transition is not in the table
     */
    public static ModuleHealthTransition requireLegal(ModuleHealthTransition transition) {
        Objects.requireNonNull(transition, "transition");
        if (!isLegal(transition.from(), transition.to())) {
            throw new IllegalStateException("illegal health transition for module '" + transition.moduleId() + "': "
                    + transition);
        }
        return transition;
    }
}
