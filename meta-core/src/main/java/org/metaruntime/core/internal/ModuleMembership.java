package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.metaruntime.core.ConfigException;
import org.metaruntime.core.StartMode;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;

/**
 * The host's changes to which modules run: spawning a member, reconciling the discovery (never unloading),
 * restarting a module by hand. Each module's changes are serialised on its lifecycle lock. Thread-safe.
 */
public final class ModuleMembership {

    private final ModuleRegistry registry;
    private final ModuleStartup startup;
    private final BooleanSupplier shutDown;

    public ModuleMembership(ModuleRegistry registry, ModuleStartup startup, BooleanSupplier shutDown) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.startup = Objects.requireNonNull(startup, "startup");
        this.shutDown = Objects.requireNonNull(shutDown, "shutDown");
    }

    /** Starts (or respawns) one configured module, adding it to the discovery; returns its ready event. */
    public EventEnvelope<UnifiedEvent> spawn(String moduleId, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        ModuleSlot slot = registry.require(moduleId);
        registry.discover(moduleId);
        synchronized (slot.lifecycleLock()) {
            requireOpen(slot);
            return startup.respawn(slot, timeout);
        }
    }

    /**
     * Replaces the discovery and starts, in order, each module not loaded; a lazy one is loaded idle. An id that is
     * not configured or is listed twice is refused before any change.
     */
    public int reconcile(List<String> moduleIds, Duration timeout) {
        Objects.requireNonNull(moduleIds, "moduleIds");
        Objects.requireNonNull(timeout, "timeout");
        List<ModuleSlot> targets = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < moduleIds.size(); i++) {
            String id = moduleIds.get(i);
            targets.add(registry.require(id));
            if (!seen.add(id)) {
                throw new ConfigException("discovery.modules[" + i + "]", "module '" + id + "' is discovered twice");
            }
        }
        registry.rediscover(moduleIds);
        int added = 0;
        for (ModuleSlot slot : targets) {
            synchronized (slot.lifecycleLock()) {
                if (!slot.loaded()) {
                    requireOpen(slot);
                    if (slot.module().startMode() == StartMode.LAZY) {
                        slot.idle();
                    } else {
                        startup.respawn(slot, timeout);
                    }
                    added++;
                }
            }
        }
        return added;
    }

    /** Restarts a started module by hand; returns its state after the attempt. */
    public ModuleHealthState restart(String moduleId) {
        ModuleSlot slot = registry.require(moduleId);
        synchronized (slot.lifecycleLock()) {
            requireOpen(slot);
            ModuleSupervisor<ModuleChild> supervisor = slot.supervisor().orElseThrow(() ->
                    new IllegalStateException("module '" + moduleId + "' was never started; use spawnMember"));
            return supervisor.restartNow();
        }
    }

    private void requireOpen(ModuleSlot slot) {
        if (shutDown.getAsBoolean() || slot.membership().phase() == ModuleSlot.Phase.SHUT_DOWN) {
            throw new IllegalStateException("the runtime is shut down; module '" + slot.id() + "' cannot start");
        }
    }
}
