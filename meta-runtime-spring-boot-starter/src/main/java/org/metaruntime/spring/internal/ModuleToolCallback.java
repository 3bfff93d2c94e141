package org.metaruntime.spring.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Objects;
import org.metaruntime.core.OutwardTools;
import org.metaruntime.core.UnifiedRuntime;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;

/**
 * One module tool as a Spring AI {@link ToolCallback}: a call goes through the runtime to the module (starting a lazy
 * module) with the module's call timeout, and answers with the result's text. A result with {@code isError: true},
 * a failure of the call and arguments that are not a JSON object throw {@link ToolExecutionException}, whose
 * message Spring AI hands to the model. Thread-safe.
 */
public final class ModuleToolCallback implements ToolCallback {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String EMPTY_SCHEMA = "{\"type\":\"object\"}";

    private final UnifiedRuntime runtime;
    private final String moduleId;
    private final String toolName;
    private final ToolDefinition definition;

    public ModuleToolCallback(UnifiedRuntime runtime, OutwardTools.Exposed exposed) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.moduleId = exposed.moduleId();
        this.toolName = exposed.tool().name();
        this.definition = ToolDefinition.builder().name(exposed.name()).description(exposed.description())
                .inputSchema(schema(exposed.tool())).build();
    }


    private static String schema(McpSchema.Tool tool) {
        if (tool.inputSchema() == null) {
            return EMPTY_SCHEMA;
        }
        try {
            return MAPPER.writeValueAsString(tool.inputSchema());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the input schema of tool " + tool.name() + " cannot be written as JSON", e);
        }
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    @Override
    public String call(String toolInput) {
        ObjectNode arguments;
        try {
            arguments = OutwardTools.arguments(toolInput);
        } catch (IllegalArgumentException e) {
            throw new ToolExecutionException(definition, new IllegalArgumentException("tool " + toolName
                    + " of module " + moduleId + ": " + e.getMessage(), e));
        }
        McpSchema.CallToolResult result;
        try {
            result = runtime.mcp(moduleId).callTool(toolName, arguments);
        } catch (RuntimeException e) {
            throw new ToolExecutionException(definition, e);
        }
        String text = OutwardTools.resultText(result);
        if (Boolean.TRUE.equals(result.isError())) {
            throw new ToolExecutionException(definition, new RuntimeException(text));
        }
        return text;
    }

    /** {@link #call(String)}; the tool context is not passed to the module. */
    @Override
    public String call(String toolInput, ToolContext toolContext) {
        return call(toolInput);
    }

    @Override
    public String toString() {
        return "ModuleToolCallback[" + definition.name() + "]";
    }
}
