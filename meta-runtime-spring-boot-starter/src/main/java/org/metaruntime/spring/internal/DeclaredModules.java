package org.metaruntime.spring.internal;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.metaruntime.core.MetaConfig;

/**
 * Every module the application declares, from every source, in discovery order, as the runtime's configuration
 * plus what the runtime does not keep: which modules are eager, required, and the tools a lazy module lists before
 * it has started. Immutable.
 *
 * @param config  the runtime's configuration (every module discovered, in order)
 * @param modules the modules, in discovery order
 */
public record DeclaredModules(MetaConfig config, List<Declared> modules) {

    /** No module. */
    public static final DeclaredModules NONE = new DeclaredModules(MetaConfig.builder().build(), List.of());

    public DeclaredModules {
        Objects.requireNonNull(config, "config");
        modules = List.copyOf(modules);
    }

    /**
     * One module.
     *
     * @param id            its id
     * @param eager         started with the runtime (else at its first use)
     * @param required      the application is unhealthy while it is down
     * @param declaredTools the tools listed for it before it has started (empty: none declared)
     * @param source        where it was declared, for messages: a property path or a manifest's {@code file:line}
     */
    public record Declared(String id, boolean eager, boolean required, List<McpSchema.Tool> declaredTools,
                           String source) {
        public Declared {
            Objects.requireNonNull(id, "id");
            declaredTools = List.copyOf(declaredTools);
            Objects.requireNonNull(source, "source");
        }
    }

    /** The module {@code id}, when declared. */
    public Optional<Declared> module(String id) {
        return modules.stream().filter(m -> m.id().equals(id)).findFirst();
    }

    /** The modules by id, in discovery order. */
    public Map<String, Declared> byId() {
        return modules.stream().collect(Collectors.toMap(Declared::id, Function.identity(), (a, b) -> a,
                java.util.LinkedHashMap::new));
    }
}
