package org.metaruntime.core.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import org.metaruntime.core.ConfigException;
import org.metaruntime.core.ConfigResolutionError;
import org.metaruntime.core.DiscoverySpec;
import org.metaruntime.core.InProcessModule;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.RuntimeFromConfigError;
import org.metaruntime.core.RuntimeFromConfigException;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.StartMode;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;

/**
 * The configured modules and the current discovery: the one place that says which modules exist, which are
 * discovered and which are loaded (each module's {@link ModuleSlot.Membership}). Thread-safe.
 */
public final class ModuleRegistry {

    private final Map<String, ModuleSlot> slots;
    private final Object membership = new Object();
    private volatile MetaConfig config;

    public ModuleRegistry(MetaConfig config, List<ModuleSlot> slots) {
        this.config = Objects.requireNonNull(config, "config");
        Map<String, ModuleSlot> byId = new LinkedHashMap<>();
        for (ModuleSlot slot : slots) {
            byId.put(slot.id(), slot);
        }
        this.slots = Collections.unmodifiableMap(byId);
    }

    /**
     * The registry of {@code config}: one slot per configured module, reached through its in-process stand-in
     * when {@code inProcess} has one, else through its real boundary. Nothing is spawned.
     *
     * @throws ConfigException when a module's boundary cannot be made (the field names the module)
     */
    public static ModuleRegistry create(MetaConfig config, RuntimeOptions options,
                                        Map<String, InProcessModule> inProcess, Executor executor) {
        List<ModuleSlot> slots = new ArrayList<>();
        for (int i = 0; i < config.modules().size(); i++) {
            ModuleConfig module = config.modules().get(i);
            InProcessModule stand = inProcess.get(module.id());
            try {
                ModuleBoundary boundary = stand != null ? InProcessBoundaries.of(stand, executor)
                        : ProcessBoundaries.create(module, config.preSpawnFor(module.id()),
                        config.protocolOf(module.id()), options);
                slots.add(new ModuleSlot(module, ModuleRouter.of(boundary, module, executor,
                        options.stopLadderFor(module))));
            } catch (ConfigException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new ConfigException("modules[" + i + "]", "module '" + module.id() + "' cannot be spawned: "
                        + e.getMessage());
            }
        }
        return new ModuleRegistry(config, slots);
    }

    /**
     * Checks that each in-process module stands in for a configured module of its kind.
     *
     * @throws ConfigException naming {@code fakeModules[<id>]}
     */
    public static void validate(MetaConfig config, Collection<InProcessModule> inProcess) {
        for (InProcessModule module : inProcess) {
            String field = "fakeModules[" + module.moduleId() + "]";
            if (!InProcessBoundaries.known(module)) {
                throw new ConfigException(field, module.getClass().getName()
                        + " is not a fake module of org.metaruntime.core.testing");
            }
            if (!config.isConfigured(module.moduleId())) {
                throw new ConfigException(field, "fake module '" + module.moduleId() + "' is not configured",
                        new ConfigResolutionError.ModuleNotConfigured(module.moduleId()));
            }
            if (module.kind() != config.boundaryOf(module.moduleId())) {
                throw new ConfigException(field, "fake module '" + module.moduleId() + "' is " + module.kind()
                        + " but its pre-spawn data selects " + config.boundaryOf(module.moduleId()));
            }
        }
    }

    /** Every configured module's slot, in configuration order. */
    public Collection<ModuleSlot> all() {
        return slots.values();
    }

    public Optional<ModuleSlot> find(String moduleId) {
        return Optional.ofNullable(slots.get(moduleId));
    }

    /** The slot of {@code moduleId}, or {@code RuntimeFromConfigException(Config(ModuleNotConfigured))}. */
    public ModuleSlot require(String moduleId) {
        ModuleSlot slot = slots.get(Objects.requireNonNull(moduleId, "moduleId"));
        if (slot == null) {
            throw new RuntimeFromConfigException(moduleId,
                    new RuntimeFromConfigError.Config(new ConfigResolutionError.ModuleNotConfigured(moduleId)));
        }
        return slot;
    }

    /** The discovered modules' slots, in discovery order. */
    public List<ModuleSlot> discovered() {
        List<ModuleSlot> discovered = new ArrayList<>();
        for (String id : config.discovery().modules()) {
            discovered.add(slots.get(id));
        }
        return discovered;
    }

    public DiscoverySpec discovery() {
        return config.discovery();
    }

    public boolean isDiscovered(String moduleId) {
        return config.isDiscovered(moduleId);
    }

    /** Adds {@code moduleId} at the end of the discovery when it is not there. */
    public void discover(String moduleId) {
        synchronized (membership) {
            if (!config.isDiscovered(moduleId)) {
                List<String> ids = new ArrayList<>(config.discovery().modules());
                ids.add(moduleId);
                config = config.withDiscoveredModules(ids);
            }
        }
    }

    /** Replaces the discovery with {@code moduleIds} (configured, none twice). */
    public void rediscover(List<String> moduleIds) {
        synchronized (membership) {
            config = config.withDiscoveredModules(moduleIds);
        }
    }

    /**
     * The loaded modules: the discovered ones in discovery order, then those loaded earlier and left out of the
     * discovery since (a module is never unloaded by a new discovery), in configuration order.
     */
    public Set<String> loaded() {
        Set<String> loaded = new LinkedHashSet<>();
        for (String id : config.discovery().modules()) {
            ModuleSlot slot = slots.get(id);
            if (slot != null && slot.loaded()) {
                loaded.add(id);
            }
        }
        for (ModuleSlot slot : slots.values()) {
            if (slot.loaded()) {
                loaded.add(slot.id());
            }
        }
        return Collections.unmodifiableSet(loaded);
    }

    /** The pid of a child whose process still runs (a {@code PER_CALL} probe's server is gone at once). */
    private static java.util.OptionalLong livePid(ModuleChild child) {
        return child.exit().isDone() ? java.util.OptionalLong.empty() : child.pid();
    }

    /** Why {@code moduleId} is not loaded, as the error a call to it gets. */
    public ModuleRouteError.UnloadedModule unloaded(String moduleId) {
        ModuleSlot slot = slots.get(moduleId);
        if (slot == null) {
            return new ModuleRouteError.UnloadedModule(moduleId, ModuleRouteError.UnloadedReason.UNKNOWN_MODULE, null);
        }
        ModuleSlot.Membership membership = slot.membership();
        if (membership.phase() == ModuleSlot.Phase.SHUT_DOWN) {
            return new ModuleRouteError.UnloadedModule(moduleId, ModuleRouteError.UnloadedReason.SHUT_DOWN, null);
        }
        if (membership.phase() == ModuleSlot.Phase.START_FAILED) {
            RuntimeBoundaryError error = membership.startupFailure() instanceof BoundaryFailure failure
                    ? failure.error() : null;
            return new ModuleRouteError.UnloadedModule(moduleId, ModuleRouteError.UnloadedReason.STARTUP_FAILED, error);
        }
        if (!isDiscovered(moduleId)) {
            return new ModuleRouteError.UnloadedModule(moduleId, ModuleRouteError.UnloadedReason.NOT_DISCOVERED, null);
        }
        return new ModuleRouteError.UnloadedModule(moduleId, ModuleRouteError.UnloadedReason.NOT_STARTED, null);
    }

    /**
     * One report per module that has been started, and per loaded lazy module without a child, in configuration
     * order. A lazy module never started is {@code Stopped} at attempt 0 ({@code Starting} while a startup runs); one
     * stopped when idle, or whose last startup failed, is reported as its last run left it (no pid).
     */
    public Map<String, ModuleSupervisorReport> reports() {
        Map<String, ModuleSupervisorReport> report = new LinkedHashMap<>();
        for (ModuleSlot slot : slots.values()) {
            Optional<ModuleSupervisor<ModuleChild>> supervisor = slot.supervisor();
            if (supervisor.isEmpty() && slot.module().startMode() == StartMode.LAZY && slot.loaded()) {
                boolean starting = slot.membership().phase() == ModuleSlot.Phase.STARTING;
                supervisor = starting ? Optional.empty() : slot.previousSupervisor();
                if (supervisor.isEmpty()) {
                    report.put(slot.id(), new ModuleSupervisorReport(slot.id(), starting ? ModuleHealthState.STARTING
                            : ModuleHealthState.STOPPED, 0, java.util.OptionalLong.empty(), 0, null, ""));
                }
            }
            supervisor.ifPresent(s -> report.put(slot.id(), s.report(ModuleRegistry::livePid, ModuleChild::stderrTail)));
        }
        return Collections.unmodifiableMap(report);
    }
}
