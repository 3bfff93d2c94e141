package org.metaruntime.spring;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.function.BiPredicate;

/**
 * Decides which modules' tools reach Spring AI: declare it as a bean, and {@link MetaRuntimeToolCallbackProvider}
 * exposes a tool only when every {@code MetaToolFilter} bean accepts it.
 *
 * <pre>{@code
 * @Bean
 * MetaToolFilter noAdminTools() {
 *     return (moduleId, tool) -> !tool.name().startsWith("admin_");
 * }
 * }</pre>
 *
 * <p>Implementations must be thread-safe: the provider may be asked for its callbacks from several threads.
 */
@FunctionalInterface
public interface MetaToolFilter extends BiPredicate<String, McpSchema.Tool> {

    /**
     * Whether to expose {@code tool} of module {@code moduleId}.
     *
     * @param moduleId the module's id
     * @param tool     the tool's descriptor as the module lists it (its own name, not the outward one)
     * @return {@code false} to hide the tool
     */
    @Override
    boolean test(String moduleId, McpSchema.Tool tool);
}
