package org.metaruntime.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The whole module configuration: the configured modules, the discovered ones (started, in order) and the
 * pre-spawn environment.
 *
 * <pre>{@code
 * MetaConfig config = MetaConfig.builder()
 *         .module(ModuleConfig.builder("router").command("python3", "router_server.py").build())
 *         .module(ModuleConfig.builder("weather").command("python3", "weather.py").build())
 *         .discover("router", "weather")
 *         .preSpawn(PreSpawnData.mcp("router"))
 *         .build();
 * }</pre>
 *
 * <p>{@link #validate()} (run by {@code UnifiedRuntime.builder(config).start()}) refuses duplicate ids, blank
 * ids, empty commands, duplicate or unconfigured discovered ids and pre-spawn data for unknown modules.
 *
 * <p>Immutable and thread-safe.
 */
public final class MetaConfig {

    private final List<ModuleConfig> modules;
    private final DiscoverySpec discovery;
    private final List<PreSpawnData> preSpawn;
    private final Map<String, ModuleConfig> byId;
    private final Map<String, PreSpawnData> firstPreSpawn;

    /** The configuration from its three parts; not validated (see {@link #validate()}). */
    public MetaConfig(List<ModuleConfig> modules, DiscoverySpec discovery, List<PreSpawnData> preSpawn) {
        this.modules = List.copyOf(Objects.requireNonNull(modules, "modules"));
        this.discovery = Objects.requireNonNull(discovery, "discovery");
        this.preSpawn = List.copyOf(Objects.requireNonNull(preSpawn, "preSpawn"));
        Map<String, ModuleConfig> map = new LinkedHashMap<>();
        for (ModuleConfig module : this.modules) {
            map.putIfAbsent(module.id(), module);
        }
        this.byId = map;
        Map<String, PreSpawnData> first = new HashMap<>();
        for (PreSpawnData data : this.preSpawn) {
            first.putIfAbsent(data.moduleId(), data);
        }
        this.firstPreSpawn = first;
    }

    /** A builder with no modules, the default namespace and no pre-spawn data. */
    public static Builder builder() {
        return new Builder();
    }

    /** The configured modules, in configuration order. */
    public List<ModuleConfig> modules() {
        return modules;
    }

    /** The discovered modules. */
    public DiscoverySpec discovery() {
        return discovery;
    }

    /** The pre-spawn data, in order. */
    public List<PreSpawnData> preSpawn() {
        return preSpawn;
    }

    /** The configuration of {@code moduleId} (the first one with that id). */
    public Optional<ModuleConfig> module(String moduleId) {
        return Optional.ofNullable(byId.get(Objects.requireNonNull(moduleId, "moduleId")));
    }

    /** Whether {@code moduleId} is configured. */
    public boolean isConfigured(String moduleId) {
        return byId.containsKey(Objects.requireNonNull(moduleId, "moduleId"));
    }

    /** Whether {@code moduleId} is in {@code discovery.modules}. */
    public boolean isDiscovered(String moduleId) {
        return discovery.modules().contains(Objects.requireNonNull(moduleId, "moduleId"));
    }

    /** The first pre-spawn data whose {@code moduleId} matches; later matches are ignored. */
    public Optional<PreSpawnData> preSpawnFor(String moduleId) {
        return Optional.ofNullable(firstPreSpawn.get(Objects.requireNonNull(moduleId, "moduleId")));
    }

    /**
     * What {@code moduleId} speaks: {@link ModuleConfig#protocol(Optional)} with its first pre-spawn data (the protocol
     * the module declares, else MCP when the pre-spawn marker selects it, else event-line).
     *
     * @throws ConfigException when {@code moduleId} is not configured
     */
    public ModuleProtocol protocolOf(String moduleId) {
        ModuleConfig module = module(moduleId).orElseThrow(() -> new ConfigException("modules",
                "module '" + moduleId + "' is not configured", new ConfigResolutionError.ModuleNotConfigured(moduleId)));
        return module.protocol(preSpawnFor(moduleId));
    }

    /**
     * The boundary of {@code moduleId}: the boundary of its {@linkplain #protocolOf(String) protocol}. A module that
     * declares no protocol is {@link ModuleBoundaryKind#MCP} when its first pre-spawn data
     * {@linkplain PreSpawnData#selectsMcp() selects MCP}, else {@link ModuleBoundaryKind#EVENT_LINE}; its own
     * {@link ModuleConfig#env()} and whether it is a core module play no part. A remote module and a bare JSON-RPC
     * module (or one that may be) are always MCP. An id that is not configured is judged by its pre-spawn data alone.
     */
    public ModuleBoundaryKind boundaryOf(String moduleId) {
        Optional<PreSpawnData> preSpawn = preSpawnFor(moduleId);
        return module(moduleId).map(module -> module.protocol(preSpawn).boundary())
                .orElseGet(() -> preSpawn.map(PreSpawnData::selectsMcp).orElse(false)
                        ? ModuleBoundaryKind.MCP : ModuleBoundaryKind.EVENT_LINE);
    }

    /** The same configuration with {@code discovery.modules} replaced. */
    public MetaConfig withDiscoveredModules(List<String> moduleIds) {
        return new MetaConfig(modules, discovery.withModules(moduleIds), preSpawn);
    }

    /**
     * Checks the configuration as a whole.
     *
     * @throws ConfigException naming the first offending field
     */
    public MetaConfig validate() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < modules.size(); i++) {
            ModuleConfig module = modules.get(i);
            String field = "modules[" + i + "]";
            if (module.id().isBlank()) {
                throw new ConfigException(field + ".id", "the module id must not be blank");
            }
            if (!ids.add(module.id())) {
                throw new ConfigException(field + ".id", "the module id '" + module.id() + "' is configured twice");
            }
            if (module.isRemote()) {
                continue;
            }
            if (module.command().isEmpty()) {
                throw new ConfigException(field + ".command", "module '" + module.id() + "' has an empty command (and no url)");
            }
            if (module.command().get(0).isBlank()) {
                throw new ConfigException(field + ".command[0]",
                        "module '" + module.id() + "' has a blank executable");
            }
        }
        Set<String> discovered = new HashSet<>();
        List<String> discoveredIds = discovery.modules();
        for (int i = 0; i < discoveredIds.size(); i++) {
            String id = discoveredIds.get(i);
            String field = "discovery.modules[" + i + "]";
            if (!ids.contains(id)) {
                throw new ConfigException(field, "module '" + id + "' is discovered but not configured",
                        new ConfigResolutionError.ModuleNotConfigured(id));
            }
            if (!discovered.add(id)) {
                throw new ConfigException(field, "module '" + id + "' is discovered twice");
            }
        }
        for (int i = 0; i < preSpawn.size(); i++) {
            String id = preSpawn.get(i).moduleId();
            if (!ids.contains(id)) {
                throw new ConfigException("preSpawn[" + i + "].moduleId",
                        "pre-spawn data names module '" + id + "', which is not configured");
            }
        }
        return this;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof MetaConfig)) {
            return false;
        }
        MetaConfig other = (MetaConfig) o;
        return modules.equals(other.modules) && discovery.equals(other.discovery) && preSpawn.equals(other.preSpawn);
    }

    @Override
    public int hashCode() {
        return Objects.hash(modules, discovery, preSpawn);
    }

    @Override
    public String toString() {
        return "MetaConfig[modules=" + modules + ", discovery=" + discovery + ", preSpawn=" + preSpawn + "]";
    }

    /** Builds a {@link MetaConfig}. Not thread-safe. */
    public static final class Builder {
        private final List<ModuleConfig> modules = new ArrayList<>();
        private String namespace = DiscoverySpec.DEFAULT_NAMESPACE;
        private final List<String> discovered = new ArrayList<>();
        private final List<PreSpawnData> preSpawn = new ArrayList<>();

        private Builder() {
        }

        /** Adds a configured module. */
        public Builder module(ModuleConfig module) {
            modules.add(Objects.requireNonNull(module, "module"));
            return this;
        }

        /** Adds configured modules. */
        /**
         * Adds an MCP module: {@code module} plus the pre-spawn marker that selects the MCP boundary for it
         * ({@code PreSpawnData.mcp(id)}). Without the marker a module is an event-line module.
         *
         * <pre>{@code
         * MetaConfig config = MetaConfig.builder()
         *         .mcp(ModuleConfig.builder("files").command("npx", "-y", "@modelcontextprotocol/server-filesystem", "/srv").build())
         *         .discover("files")
         *         .build();
         * }</pre>
         */
        public Builder mcp(ModuleConfig module) {
            module(module);
            return preSpawn(PreSpawnData.mcp(module.id()));
        }

        public Builder modules(List<ModuleConfig> modules) {
            Objects.requireNonNull(modules, "modules").forEach(this::module);
            return this;
        }

        /** Appends discovered module ids (start order). */
        public Builder discover(String... moduleIds) {
            for (String id : Arrays.asList(Objects.requireNonNull(moduleIds, "moduleIds"))) {
                discovered.add(Objects.requireNonNull(id, "moduleId"));
            }
            return this;
        }

        /** The discovery namespace. Default {@value DiscoverySpec#DEFAULT_NAMESPACE}. */
        public Builder namespace(String namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /** Replaces the namespace and the discovered ids. */
        public Builder discovery(DiscoverySpec discovery) {
            Objects.requireNonNull(discovery, "discovery");
            this.namespace = discovery.namespace();
            this.discovered.clear();
            this.discovered.addAll(discovery.modules());
            return this;
        }

        /** Adds pre-spawn data (only the first entry for a module is used). */
        public Builder preSpawn(PreSpawnData data) {
            preSpawn.add(Objects.requireNonNull(data, "data"));
            return this;
        }

        /** The configuration (not validated; see {@link MetaConfig#validate()}). */
        public MetaConfig build() {
            return new MetaConfig(modules, new DiscoverySpec(namespace, discovered), preSpawn);
        }
    }
}
