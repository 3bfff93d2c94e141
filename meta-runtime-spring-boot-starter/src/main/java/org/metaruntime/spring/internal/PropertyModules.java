package org.metaruntime.spring.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleProtocol;
import org.metaruntime.core.StartMode;
import org.metaruntime.spring.MetaRuntimeProperties;
import org.metaruntime.spring.MetaRuntimeProperties.Protocol;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The modules declared under {@code meta.runtime.modules}, checked, each error naming its property
 * ({@code meta.runtime.modules.<id>.<property>}). Stateless.
 */
final class PropertyModules {

    static final String PREFIX = "meta.runtime.modules.";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true);

    private PropertyModules() {
    }

    static List<ModuleSources.Entry> read(Map<String, MetaRuntimeProperties.Module> modules) {
        List<ModuleSources.Entry> entries = new ArrayList<>();
        if (modules == null) {
            return entries;
        }
        modules.forEach((id, module) -> entries.add(entry(id, module == null ? new MetaRuntimeProperties.Module() : module)));
        return entries;
    }

    private static ModuleSources.Entry entry(String id, MetaRuntimeProperties.Module module) {
        String path = PREFIX + id;
        boolean hasCommand = module.getCommand() != null && !module.getCommand().isEmpty();
        boolean remote = module.getUrl() != null;
        Protocol protocol = module.getProtocol() == null ? Protocol.MCP : module.getProtocol();
        if (!hasCommand && !remote) {
            throw problem(path + ".command", null, "module '" + id
                    + "' needs a command (a local process) or a url (a remote MCP server)");
        }
        if (hasCommand && remote) {
            throw problem(path + ".url", module.getUrl(), "module '" + id + "' has both a command and a url");
        }
        if (remote && protocol != Protocol.MCP) {
            throw problem(path + ".url", module.getUrl(), "a remote module speaks MCP; protocol "
                    + protocol.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + " needs a command");
        }
        List<McpSchema.Tool> tools = tools(path, module.getTools());
        if (protocol == Protocol.JSONRPC && tools.isEmpty()) {
            throw problem(path + ".tools", null, "a jsonrpc module declares its tools: it has no tools/list");
        }
        if (!remote && module.getHeaders() != null && !module.getHeaders().isEmpty()) {
            throw problem(path + ".headers", null, "headers are sent to a remote module; module '" + id
                    + "' has no url");
        }
        boolean eager = module.getStart() == MetaRuntimeProperties.Start.EAGER;
        ModuleConfig config;
        try {
            ModuleConfig.Builder builder = ModuleConfig.builder(id)
                    .startMode(eager ? StartMode.EAGER : StartMode.LAZY);
            if (remote) {
                builder.url(module.getUrl());
                module.getHeaders().forEach(builder::header);
            } else {
                builder.command(module.getCommand());
                if (module.getWorkdir() != null) {
                    builder.workdir(module.getWorkdir());
                }
                if (module.getEnv() != null) {
                    builder.env(module.getEnv());
                }
            }
            if (module.getCallTimeout() != null) {
                builder.callTimeout(module.getCallTimeout());
            }
            if (module.getRestartPolicy() != null) {
                builder.restartPolicy(module.getRestartPolicy());
            }
            if (protocol == Protocol.JSONRPC) {
                builder.bare(tools);
            } else if (!remote) {
                builder.protocol(protocol == Protocol.EVENT_LINE ? ModuleProtocol.eventLine() : ModuleProtocol.mcp());
            }
            config = builder.build();
        } catch (IllegalArgumentException e) {
            throw problem(path, null, e.getMessage());
        }
        DeclaredModules.Declared declared = new DeclaredModules.Declared(id, eager, module.isRequired(),
                protocol == Protocol.EVENT_LINE ? List.of() : tools, path);
        return new ModuleSources.Entry(config, declared);
    }

    private static List<McpSchema.Tool> tools(String path, List<MetaRuntimeProperties.Tool> declared) {
        List<McpSchema.Tool> tools = new ArrayList<>();
        if (declared == null) {
            return tools;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < declared.size(); i++) {
            String at = path + ".tools[" + i + "]";
            MetaRuntimeProperties.Tool tool = declared.get(i);
            if (tool == null || tool.getName() == null || tool.getName().isBlank()) {
                throw problem(at + ".name", null, "a declared tool needs a name");
            }
            if (!names.add(tool.getName())) {
                throw problem(at + ".name", tool.getName(), "tool '" + tool.getName() + "' is declared twice");
            }
            tools.add(McpSchema.Tool.builder().name(tool.getName()).description(tool.getDescription())
                    .inputSchema(schema(at + ".input-schema", tool.getInputSchema())).build());
        }
        return tools;
    }

    private static Map<String, Object> schema(String path, String text) {
        if (text == null || text.isBlank()) {
            return Map.of("type", "object");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw problem(path, text, "an input schema is JSON text of an object: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw problem(path, text, "an input schema is JSON text of an object");
        }
        return MAPPER.convertValue(node, new TypeReference<Map<String, Object>>() {
        });
    }

    private static InvalidConfigurationPropertyValueException problem(String property, Object value, String reason) {
        return new InvalidConfigurationPropertyValueException(property, value, reason);
    }
}
