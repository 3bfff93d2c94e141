package org.metaruntime.core.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.PreSpawnData;

/**
 * The environment of a module's process: the host's environment (all of it, or only the pass-through names),
 * then the runtime's {@link org.metaruntime.core.ProcessOptions#env()}, then {@link ModuleConfig#env()}, then the
 * matching {@link PreSpawnData#env()}; a later source wins, and a later pre-spawn entry wins over an earlier one with
 * the same key.
 */
public final class Environments {

    private Environments() {
    }

    /** What is put on top of the inherited environment: the runtime's env, the module's env, then the pre-spawn env. */
    public static Map<String, String> overlay(Map<String, String> runtimeEnv, ModuleConfig module,
                                              Optional<PreSpawnData> preSpawn) {
        Objects.requireNonNull(module, "module");
        Map<String, String> env = new LinkedHashMap<>(runtimeEnv);
        env.putAll(module.env());
        preSpawn.ifPresent(data -> data.env().forEach(entry -> env.put(entry.getKey(), entry.getValue())));
        return env;
    }

    /** The complete environment the module's process sees. */
    public static Map<String, String> effective(Map<String, String> host, boolean inheritEnv, Set<String> passThrough,
                                                Map<String, String> runtimeEnv, ModuleConfig module,
                                                Optional<PreSpawnData> preSpawn) {
        Map<String, String> env = new LinkedHashMap<>();
        if (inheritEnv) {
            env.putAll(host);
        } else {
            for (String name : passThrough) {
                String value = host.get(name);
                if (value != null) {
                    env.put(name, value);
                }
            }
        }
        env.putAll(overlay(runtimeEnv, module, preSpawn));
        return env;
    }
}
