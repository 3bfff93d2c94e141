package org.metaruntime.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import org.metaruntime.core.OutwardTools;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.langchain4j.internal.ModuleToolExecutor;
import org.metaruntime.langchain4j.internal.SchemaMapping;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tools of a {@link UnifiedRuntime}'s MCP modules as langchain4j tools, for
 * {@code AiServices.builder(...).toolProvider(provider)}.
 *
 * <pre>{@code
 * ToolProvider tools = MetaRuntimeToolProvider.builder(runtime)
 *         .filter((moduleId, tool) -> !tool.name().startsWith("admin_"))   // optional; default: every tool
 *         .build();
 * Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).toolProvider(tools).build();
 * }</pre>
 *
 * <ul>
 *   <li><b>Listing.</b> {@link #provideTools} lists every loaded MCP module (discovery order; a lazy module is
 *       started by it), each tool under the name {@code <module>__<tool>} ({@code <module>__<seat>_<verb>} for a seat
 *       verb {@code <seat>.<verb>}; see {@link OutwardTools} for the names that are not exposed). Event-line modules
 *       and modules that are down or cannot list their tools are left out; it never throws because of a module.</li>
 *   <li><b>Specification.</b> The description is the tool's description, else its title, else its outward name; the
 *       parameters are mapped from its {@code inputSchema} (types, {@code enum}, {@code anyOf}, {@code $ref} into
 *       {@code $defs}, descriptions, {@code required}, {@code additionalProperties}). A tool whose schema langchain4j's
 *       elements cannot express (e.g. {@code minimum}, {@code pattern}, {@code oneOf}) is not offered rather than
 *       offered with a constraint dropped, with one WARN naming the module and the tool.</li>
 *   <li><b>Execution.</b> A call goes through the runtime with the module's call timeout. Its result is the tool's
 *       result as text ({@link OutwardTools#resultText}); a result with {@code isError: true}, a routing error, a
 *       timeout, a module that crashed during the call or arguments that are not a JSON object give an error result
 *       ({@code isError()} true) whose text the model reads (the failure's message names the module). The executor
 *       never throws for these.</li>
 * </ul>
 *
 * <p>Not dynamic ({@link #isDynamic()} is {@code false}). Immutable apart from remembering which warnings it logged;
 * thread-safe.
 */
public final class MetaRuntimeToolProvider implements ToolProvider {

    private static final Logger LOG = LoggerFactory.getLogger(MetaRuntimeToolProvider.class);
    private static final int MAX_REMEMBERED_WARNINGS = 10_000;

    private final UnifiedRuntime runtime;
    private final BiPredicate<String, McpSchema.Tool> filter;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    private MetaRuntimeToolProvider(Builder builder) {
        this.runtime = builder.runtime;
        this.filter = builder.filter;
    }

    /** A builder of a provider over {@code runtime}'s modules. */
    public static Builder builder(UnifiedRuntime runtime) {
        return new Builder(Objects.requireNonNull(runtime, "runtime"));
    }

    /** One specification and executor per exposed tool that its schema lets langchain4j express. */
    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        ToolProviderResult.Builder result = ToolProviderResult.builder();
        for (OutwardTools.Exposed exposed : OutwardTools.expose(runtime, filter)) {
            JsonObjectSchema parameters;
            try {
                parameters = SchemaMapping.parameters(exposed.tool().inputSchema());
            } catch (SchemaMapping.NotExpressible e) {
                warnOnce(exposed, e.getMessage());
                continue;
            }
            ToolSpecification specification = ToolSpecification.builder()
                    .name(exposed.name())
                    .description(exposed.description())
                    .parameters(parameters)
                    .build();
            result.add(specification, new ModuleToolExecutor(runtime, exposed));
        }
        return result.build();
    }

    /** {@code false}: the tools are listed for each request and need no per-request filtering by langchain4j. */
    @Override
    public boolean isDynamic() {
        return false;
    }


    private void warnOnce(OutwardTools.Exposed exposed, String reason) {
        String key = exposed.moduleId() + "\0" + exposed.tool().name();
        if (warned.size() < MAX_REMEMBERED_WARNINGS ? warned.add(key) : !warned.contains(key)) {
            LOG.warn("tool {} of module {} is not offered to langchain4j: its input schema cannot be expressed"
                    + " ({})", OutwardTools.quote(exposed.tool().name()), OutwardTools.quote(exposed.moduleId()),
                    OutwardTools.quote(reason));
        }
    }


    @Override
    public String toString() {
        return "MetaRuntimeToolProvider[" + runtime + "]";
    }

    /** Builds a {@link MetaRuntimeToolProvider}. Not thread-safe. */
    public static final class Builder {
        private final UnifiedRuntime runtime;
        private BiPredicate<String, McpSchema.Tool> filter = (moduleId, tool) -> true;

        private Builder(UnifiedRuntime runtime) {
            this.runtime = runtime;
        }

        /**
         * Which tools are offered: {@code test(moduleId, tool)} sees the tool as the module lists it (original name);
         * {@code false} hides it. Default: every tool.
         */
        public Builder filter(BiPredicate<String, McpSchema.Tool> filter) {
            this.filter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /** The provider. */
        public MetaRuntimeToolProvider build() {
            return new MetaRuntimeToolProvider(this);
        }
    }
}
