package org.metaruntime.spring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.spring.internal.DeclaredModules;
import org.metaruntime.spring.internal.ModuleStates;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The runtime's health in Actuator, under the contributor name {@code metaRuntime}: one entry per module in
 * {@code modules} ({@code state}, {@code restarts}, {@code required}, {@code lastError}, {@code pid}), the ids of the
 * modules that are down in {@code down}, and {@code degraded}. The status is DOWN while a module declared
 * {@code required: true} is down, else UP.
 *
 * <pre>{@code
 * GET /actuator/health/metaRuntime
 * {"status":"UP","details":{"modules":{"weather":{"state":"Healthy","restarts":0,"required":true,"pid":4242},
 *   "search":{"state":"NotStarted","restarts":0,"required":false}},"down":[],"degraded":false}}
 * }</pre>
 *
 * <p>Thread-safe: each {@link #health()} reads the runtime's current reports.
 */
public class MetaRuntimeHealthIndicator implements HealthIndicator {

    /** The state of a lazy module that has not been started yet. */
    public static final String NOT_STARTED = "NotStarted";

    private static final Set<ModuleHealthState> DOWN = Set.of(ModuleHealthState.FAILED, ModuleHealthState.RESTARTING,
            ModuleHealthState.STOPPED);

    private final UnifiedRuntime runtime;
    private final DeclaredModules declared;

    /**
     * The health of {@code runtime}'s modules (for a runtime built without the auto-configuration; none of them is
     * required).
     */
    public MetaRuntimeHealthIndicator(UnifiedRuntime runtime) {
        this(runtime, DeclaredModules.NONE);
    }

    /** The health of {@code runtime}'s modules, with the modules the application declared (which are required). */
    MetaRuntimeHealthIndicator(UnifiedRuntime runtime, DeclaredModules declared) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.declared = Objects.requireNonNull(declared, "declared");
    }

    @Override
    public Health health() {
        Map<String, ModuleSupervisorReport> reports = runtime.supervisorReport();
        Set<String> ids = new LinkedHashSet<>();
        declared.modules().forEach(module -> ids.add(module.id()));
        ids.addAll(runtime.discovery().modules());
        Map<String, Object> modules = new LinkedHashMap<>();
        Set<String> down = new TreeSet<>();
        boolean requiredDown = false;
        for (String id : ids) {
            boolean required = declared.module(id).map(DeclaredModules.Declared::required).orElse(false);
            ModuleSupervisorReport report = reports.get(id);
            Map<String, Object> entry = new LinkedHashMap<>();
            String state;
            String lastError = null;
            if (report == null) {
                state = runtime.loadedModules().contains(id) ? NOT_STARTED : ModuleHealthState.STOPPED.jsonName();
                if (!runtime.loadedModules().contains(id)) {
                    lastError = ModuleStates.errorOf(runtime, id, null);
                }
            } else if (ModuleStates.notStarted(report)) {
                state = NOT_STARTED;
            } else {
                state = report.state().jsonName();
                lastError = report.lastError();
            }
            boolean isDown = report == null ? !runtime.loadedModules().contains(id)
                    : !ModuleStates.notStarted(report) && DOWN.contains(report.state());
            if (isDown) {
                down.add(id);
                requiredDown |= required;
                if (lastError == null) {
                    lastError = ModuleStates.errorOf(runtime, id, report);
                }
            }
            entry.put("state", state);
            entry.put("restarts", report == null ? 0 : report.restarts());
            entry.put("required", required);
            if (lastError != null) {
                entry.put("lastError", lastError);
            }
            if (report != null && report.pid().isPresent()) {
                entry.put("pid", report.pid().getAsLong());
            }
            modules.put(id, entry);
        }
        Health.Builder health = requiredDown ? Health.down() : Health.up();
        return health.withDetail("modules", modules).withDetail("down", new ArrayList<>(down))
                .withDetail("degraded", !down.isEmpty()).build();
    }
}
