package org.metaruntime.spring;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import org.metaruntime.core.OutwardTools;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.spring.internal.DeclaredModules;
import org.metaruntime.spring.internal.ModuleStates;
import org.metaruntime.spring.internal.ModuleToolCallback;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

/**
 * Every module's tools as Spring AI tool callbacks, named {@code <module>__<tool>}, with the tools' descriptions and
 * input schemas; a call goes through the runtime to the module and answers with the result's text.
 *
 * <pre>{@code
 * String answer = ChatClient.builder(chatModel)
 *         .defaultToolCallbacks(metaRuntimeToolCallbackProvider)
 *         .build()
 *         .prompt("What is the weather in Paris?")
 *         .call()
 *         .content();
 * }</pre>
 *
 * <p>Each {@link #getToolCallbacks()} lists the modules again: modules in declaration order, tools in server order;
 * a lazy module that has not started lists its declared tools (one that declares none is started by the listing);
 * after a module's tool list changes, the next listing shows the new list. Event-line modules, modules that are
 * down or not loaded contribute no callback, and the listing never throws because of a module. A tool is exposed
 * only when every {@link MetaToolFilter} accepts it.
 *
 * <p>Thread-safe.
 */
public class MetaRuntimeToolCallbackProvider implements ToolCallbackProvider {

    private static final Logger LOG = LoggerFactory.getLogger(MetaRuntimeToolCallbackProvider.class);

    private final UnifiedRuntime runtime;
    private final DeclaredModules declared;
    private final BiPredicate<String, McpSchema.Tool> filter;

    /**
     * A provider of every tool of {@code runtime}'s modules that all {@code filters} accept (for a runtime built
     * without the auto-configuration).
     *
     * @param runtime the runtime whose modules' tools are exposed
     * @param filters the filters a tool must all pass
     */
    public MetaRuntimeToolCallbackProvider(UnifiedRuntime runtime,
                                           List<? extends BiPredicate<String, McpSchema.Tool>> filters) {
        this(runtime, DeclaredModules.NONE, filters);
    }

    /** A provider that also lists the declared tools of lazy modules that have not started. */
    MetaRuntimeToolCallbackProvider(UnifiedRuntime runtime, DeclaredModules declared,
                                    List<? extends BiPredicate<String, McpSchema.Tool>> filters) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.declared = Objects.requireNonNull(declared, "declared");
        List<BiPredicate<String, McpSchema.Tool>> all = List.copyOf(filters);
        this.filter = (moduleId, tool) -> all.stream().allMatch(f -> f.test(moduleId, tool));
    }

    @Override
    public ToolCallback[] getToolCallbacks() {
        Set<String> loaded = runtime.loadedModules();
        Map<String, ModuleSupervisorReport> reports = runtime.supervisorReport();
        Map<String, List<McpSchema.Tool>> listed = new LinkedHashMap<>();
        for (String moduleId : runtime.discovery().modules()) {
            if (!loaded.contains(moduleId)) {
                continue;
            }
            Optional<DeclaredModules.Declared> module = declared.module(moduleId);
            if (module.isPresent() && !module.get().declaredTools().isEmpty()
                    && ModuleStates.notStarted(reports.get(moduleId))) {
                listed.put(moduleId, module.get().declaredTools());
            } else {
                listed.put(moduleId, liveTools(moduleId));
            }
        }
        return OutwardTools.exposeListed(listed, filter).stream()
                .map(exposed -> new ModuleToolCallback(runtime, exposed))
                .toArray(ToolCallback[]::new);
    }

    private List<McpSchema.Tool> liveTools(String moduleId) {
        try {
            return runtime.mcp(moduleId).tools();
        } catch (RuntimeException e) {
            LOG.debug("module {} contributes no tool callbacks: {}", moduleId, e.getMessage());
            return List.of();
        }
    }
}
