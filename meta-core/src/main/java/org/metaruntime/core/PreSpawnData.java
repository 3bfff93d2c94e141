package org.metaruntime.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Environment added to one module's process before it is spawned. Only the first {@code PreSpawnData}
 * whose {@code moduleId} matches a module is used. Its {@code env} is the only place the boundary marker
 * {@value #BOUNDARY_KEY} is read: a module is MCP when the first entry with that exact key has a value that,
 * trimmed, equals {@code mcp} ignoring case. The marker applies to a module that declares no protocol (see
 * {@link ModuleConfig#protocol(Optional)}).
 *
 * <pre>{@code
 * PreSpawnData router = PreSpawnData.mcp("router");                       // META_MODULE_BOUNDARY=mcp
 * PreSpawnData weather = PreSpawnData.of("weather", Map.of("API_BASE", "http://localhost:9000"));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param moduleId the module the environment is for
 * @param env      the entries in order; a later entry with the same key wins in the process environment
 */
public record PreSpawnData(String moduleId, List<Map.Entry<String, String>> env) {

    /** The environment key that selects the boundary. */
    public static final String BOUNDARY_KEY = "META_MODULE_BOUNDARY";

    public PreSpawnData {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(env, "env");
        List<Map.Entry<String, String>> copy = new ArrayList<>(env.size());
        for (Map.Entry<String, String> entry : env) {
            Objects.requireNonNull(entry, "env entry");
            copy.add(Map.entry(Objects.requireNonNull(entry.getKey(), "env key"),
                    Objects.requireNonNull(entry.getValue(), "env value for " + entry.getKey())));
        }
        env = List.copyOf(copy);
    }

    /** Pre-spawn data from a map, in the map's iteration order (use a {@code LinkedHashMap} to fix it). */
    public static PreSpawnData of(String moduleId, Map<String, String> env) {
        return new PreSpawnData(moduleId, List.copyOf(Objects.requireNonNull(env, "env").entrySet()));
    }

    /** Pre-spawn data that marks {@code moduleId} as an MCP module ({@code META_MODULE_BOUNDARY=mcp}). */
    public static PreSpawnData mcp(String moduleId) {
        return new PreSpawnData(moduleId, List.of(Map.entry(BOUNDARY_KEY, "mcp")));
    }

    /** The value of the first entry with exactly this key. */
    public Optional<String> firstValue(String key) {
        Objects.requireNonNull(key, "key");
        for (Map.Entry<String, String> entry : env) {
            if (entry.getKey().equals(key)) {
                return Optional.of(entry.getValue());
            }
        }
        return Optional.empty();
    }

    /** Whether this environment selects the MCP boundary. */
    public boolean selectsMcp() {
        return firstValue(BOUNDARY_KEY).map(v -> v.trim().equalsIgnoreCase("mcp")).orElse(false);
    }
}
