package org.metaruntime.langchain4j.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Objects;
import org.metaruntime.core.OutwardTools;
import org.metaruntime.core.UnifiedRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes one exposed module tool through the runtime, with the module's call timeout (a lazy module is started
 * first). Never throws for a failure of the call: the result is an error whose text the model reads. Thread-safe.
 */
public final class ModuleToolExecutor implements ToolExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleToolExecutor.class);

    private final UnifiedRuntime runtime;
    private final OutwardTools.Exposed exposed;

    /** The executor of {@code exposed} on {@code runtime}. */
    public ModuleToolExecutor(UnifiedRuntime runtime, OutwardTools.Exposed exposed) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.exposed = Objects.requireNonNull(exposed, "exposed");
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
        ObjectNode arguments;
        try {
            arguments = OutwardTools.arguments(request == null ? null : request.arguments());
        } catch (IllegalArgumentException e) {
            return error(prefix() + e.getMessage());
        }
        McpSchema.CallToolResult result;
        String text;
        try {
            result = runtime.mcp(exposed.moduleId()).callTool(exposed.tool().name(), arguments);
            text = OutwardTools.resultText(result);
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
            LOG.debug("tool {} failed: {}", exposed.name(), message);
            return error(message.contains("'" + exposed.moduleId() + "'") ? message : prefix() + message);
        }
        if (Boolean.TRUE.equals(result.isError())) {
            return error(text);
        }
        return ToolExecutionResult.builder().result(text).resultText(text).build();
    }

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
        return executeWithContext(request, null).resultText();
    }

    private String prefix() {
        return "module '" + exposed.moduleId() + "', tool '" + exposed.tool().name() + "': ";
    }

    private static ToolExecutionResult error(String text) {
        return ToolExecutionResult.builder().isError(true).result(text).resultText(text).build();
    }

    @Override
    public String toString() {
        return "ModuleToolExecutor[" + exposed.name() + "]";
    }
}
