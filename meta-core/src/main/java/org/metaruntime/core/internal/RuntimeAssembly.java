package org.metaruntime.core.internal;

import java.util.List;
import org.metaruntime.core.ConfigException;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.LifecycleStage;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.UnifiedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of one running runtime, wired from its {@link RuntimeSettings} and started by {@link #start}: the
 * threads, the registry, the persistence, the runtime's records, startup, calls, membership and shutdown. Startup
 * records {@code MobStarted}, installs the shutdown hook, starts the discovered modules ({@code ModulesStarted}),
 * merges the host's agent events and records {@code MergedStreamStarted}; when it fails, everything already started
 * is shut down. The parts are thread-safe.
 */
public record RuntimeAssembly(RuntimeEvents events, RuntimePersistence persistence, ModuleRegistry registry,
                              CallRouter calls, ModuleMembership membership, RuntimeShutdown shutdown) {

    private static final Logger LOG = LoggerFactory.getLogger(RuntimeAssembly.class);

    /**
     * Validates {@code settings}, wires the parts and starts the discovered modules.
     *
     * @throws ConfigException        when the configuration is invalid; nothing was started
     * @throws NormalizationException when an agent event is not an agent event
     */
    public static RuntimeAssembly start(RuntimeSettings settings) {
        List<EventEnvelope<UnifiedEvent>> agentEvents = settings.validatedAgentEvents();
        RuntimeOptions options = settings.options();
        RuntimeThreads threads = new RuntimeThreads(settings.executor(), settings.scheduler());
        ModuleRegistry registry;
        RuntimePersistence persistence;
        try {
            registry = ModuleRegistry.create(settings.config(), options, settings.inProcess(), threads.executor());
            persistence = RuntimePersistence.open(settings.persistentState(), settings.eventLog(),
                    settings.persistentMetadata(), settings.mobEventSource());
        } catch (RuntimeException e) {
            threads.release();
            throw e;
        }
        RuntimeEvents events = new RuntimeEvents(settings.clock(), options.events(), persistence.log().orElse(null));
        ModuleStartup startup = new ModuleStartup(options, events, threads, settings.clock());
        CallRouter calls = new CallRouter(registry, options, events,
                new LazyModules(startup, options, threads.scheduler(), threads.executor()),
                new CallListening(settings.callListener()));
        RuntimeShutdown shutdown = new RuntimeShutdown(registry, options, calls, threads, events, persistence);
        ModuleMembership membership = new ModuleMembership(registry, startup, shutdown::isDone);
        try {
            startAll(events, registry, startup, shutdown, agentEvents);
        } catch (RuntimeException | Error e) {
            shutdown.run();
            throw e;
        }
        return new RuntimeAssembly(events, persistence, registry, calls, membership, shutdown);
    }

    private static void startAll(RuntimeEvents events, ModuleRegistry registry, ModuleStartup startup,
                                 RuntimeShutdown shutdown, List<EventEnvelope<UnifiedEvent>> agentEvents) {
        events.lifecycle(LifecycleStage.MOB_STARTED);
        shutdown.installHook();
        List<ModuleSlot> discovered = registry.discovered();
        startup.startAll(discovered);
        events.lifecycle(LifecycleStage.MODULES_STARTED);
        startup.flush(discovered);
        agentEvents.forEach(events::insert);
        events.lifecycle(LifecycleStage.MERGED_STREAM_STARTED);
        LOG.info("runtime started: {} of {} discovered module(s) loaded", registry.loaded().size(), discovered.size());
    }
}
