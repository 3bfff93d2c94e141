package org.metaruntime.core.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.metaruntime.core.ModuleCallListener;
import org.metaruntime.core.ConfigException;
import org.metaruntime.core.InProcessModule;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.PersistentMetadataStore;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.events.spi.MobEventSource;
import org.metaruntime.supervisor.Scheduler;

/**
 * What one runtime is made of, as its builder collected it: the configuration, the options, the host's agent
 * events and clock, and the optional parts a host may bring (each null when not set: the executor and scheduler, the
 * state directory, event log, metadata store, mob-event source and call listener), plus the in-process modules by id. Immutable.
 */
public record RuntimeSettings(MetaConfig config, RuntimeOptions options,
                              List<EventEnvelope<UnifiedEvent>> agentEvents, Clock clock,
                              Executor executor, Scheduler scheduler,
                              Map<String, InProcessModule> inProcess, Path persistentState, EventLog eventLog,
                              PersistentMetadataStore persistentMetadata, MobEventSource mobEventSource,
                              ModuleCallListener callListener) {

    public RuntimeSettings {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(options, "options");
        agentEvents = List.copyOf(agentEvents);
        Objects.requireNonNull(clock, "clock");
        inProcess = Collections.unmodifiableMap(new LinkedHashMap<>(inProcess));
    }

    /**
     * The agent events to merge at startup, each through the agent projection, once the configuration and the
     * in-process modules are checked.
     *
     * @throws ConfigException        when the configuration or an in-process module is invalid
     * @throws NormalizationException when an agent event is not an agent event
     */
    public List<EventEnvelope<UnifiedEvent>> validatedAgentEvents() {
        config.validate();
        ModuleRegistry.validate(config, inProcess.values());
        return agentEvents.stream().map(RuntimeEvents::projectAgent).toList();
    }
}
