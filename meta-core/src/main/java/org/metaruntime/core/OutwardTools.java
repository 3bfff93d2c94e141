package org.metaruntime.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's modules' tools as an agent framework sees them: each tool under one outward name
 * {@code <module>__<tool>}, its arguments as a JSON object, its result as one text. The Spring AI and langchain4j
 * adapters are built on it, and a host exposing the tools to another framework can use it the same way.
 *
 * <pre>{@code
 * for (OutwardTools.Exposed exposed : OutwardTools.expose(runtime, (moduleId, tool) -> true)) {
 *     register(exposed.name(), exposed.tool().description(), arguments -> {
 *         McpSchema.CallToolResult result = runtime.mcp(exposed.moduleId())
 *                 .callTool(exposed.tool().name(), OutwardTools.arguments(arguments));
 *         return OutwardTools.resultText(result);
 *     });
 * }
 * }</pre>
 *
 * <p><b>Names.</b> A tool {@code <seat>.<verb>} (a seat verb, see {@link ToolRole}) becomes
 * {@code <module>__<seat>_<verb>}, any other tool {@code <module>__<tool>}. A name that then does not match
 * {@code ^[a-zA-Z0-9_-]{1,64}$} (what LLM providers accept) is not exposed, and neither is a name an earlier tool
 * already has; both are logged at WARN once per module and tool.
 *
 * <p>Stateless apart from remembering which warnings it logged; thread-safe.
 */
public final class OutwardTools {

    private static final Logger LOG = LoggerFactory.getLogger(OutwardTools.class);

    /** The separator between module id and tool name. */
    public static final String SEPARATOR = "__";

    /** The names LLM providers accept for a tool. */
    public static final Pattern NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

    private static final int MAX_REMEMBERED_WARNINGS = 10_000;
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final ObjectReader ARGUMENTS = MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .with(JsonNodeFactory.withExactBigDecimals(true));

    private static final ObjectWriter OBJECT = MAPPER.writer();
    /** The blocks with their {@code type}: the element type is what carries it. */
    private static final ObjectWriter CONTENT_LIST = MAPPER.writerFor(new TypeReference<List<McpSchema.Content>>() {
    });

    private OutwardTools() {
    }

    /**
     * One exposed tool.
     *
     * @param name     its outward name, {@code <module>__<tool>}
     * @param moduleId the module serving it
     * @param tool     its descriptor as the module lists it (original name, schemas, annotations)
     */
    public record Exposed(String name, String moduleId, McpSchema.Tool tool) {
        public Exposed {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(tool, "tool");
        }

        /** What a framework shows the model: the tool's description, else its title, else the outward name. */
        public String description() {
            if (tool.description() != null && !tool.description().isBlank()) {
                return tool.description();
            }
            if (tool.title() != null && !tool.title().isBlank()) {
                return tool.title();
            }
            return name;
        }
    }

    /**
     * The outward name of tool {@code toolName} of module {@code moduleId}: {@code <module>__<seat>_<verb>} for a seat
     * verb {@code <seat>.<verb>}, else {@code <module>__<tool>}; empty when that name does not match
     * {@code ^[a-zA-Z0-9_-]{1,64}$} (the name is never shortened or rewritten otherwise).
     */
    public static Optional<String> outwardName(String moduleId, String toolName) {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(toolName, "toolName");
        String name = ToolRole.of(toolName) instanceof ToolRole.SeatVerb sv
                ? moduleId + SEPARATOR + sv.seat() + "_" + sv.verb()
                : moduleId + SEPARATOR + toolName;
        return NAME.matcher(name).matches() ? Optional.of(name) : Optional.empty();
    }

    /**
     * The tools of every loaded MCP module of {@code runtime} that {@code filter} accepts: modules in discovery
     * order, tools in server order. Listing is a use of a module: a lazy module that has not started is started.
     * Event-line modules, modules that are not loaded, down, or fail to list their tools contribute none; a tool
     * whose outward name is not valid or already taken is left out (WARN). Never throws because of a module.
     *
     * @param filter {@code test(moduleId, tool)}: {@code false} hides the tool; it sees the tool as the module lists
     *               it (original name)
     */
    public static List<Exposed> expose(UnifiedRuntime runtime, BiPredicate<String, McpSchema.Tool> filter) {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(filter, "filter");
        Set<String> loaded = runtime.loadedModules();
        Map<String, List<McpSchema.Tool>> listed = new LinkedHashMap<>();
        for (String moduleId : runtime.discovery().modules()) {
            if (loaded.contains(moduleId)) {
                listed.put(moduleId, toolsOf(runtime, moduleId));
            }
        }
        return exposeListed(listed, filter);
    }

    /**
     * Names tools already listed, as {@link #expose} does: modules in {@code toolsByModule}'s iteration order, tools
     * in list order; a tool that {@code filter} refuses, whose outward name is not valid or already taken is left
     * out (the last two with a WARN).
     */
    public static List<Exposed> exposeListed(Map<String, List<McpSchema.Tool>> toolsByModule,
                                             BiPredicate<String, McpSchema.Tool> filter) {
        Objects.requireNonNull(toolsByModule, "toolsByModule");
        Objects.requireNonNull(filter, "filter");
        List<Exposed> exposed = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        toolsByModule.forEach((moduleId, tools) -> {
            for (McpSchema.Tool tool : tools == null ? List.<McpSchema.Tool>of() : tools) {
                if (tool != null && tool.name() != null && filter.test(moduleId, tool)) {
                    name(moduleId, tool.name(), taken).ifPresent(name ->
                            exposed.add(new Exposed(name, moduleId, tool)));
                }
            }
        });
        return List.copyOf(exposed);
    }

    /**
     * {@link #outwardName} of one tool, unless {@code taken} holds it already; adds it to {@code taken}. Logs the
     * reason (WARN) when the tool is not exposed.
     */
    private static Optional<String> name(String moduleId, String toolName, Set<String> taken) {
        Optional<String> name = outwardName(moduleId, toolName);
        if (name.isEmpty()) {
            warnOnce("invalid " + moduleId + " " + toolName, "tool {} of module {} is not exposed: its outward name"
                    + " {}{}{} is not 1 to 64 letters, digits, '_' or '-'", quote(toolName), quote(moduleId),
                    quote(moduleId), SEPARATOR, quote(toolName));
            return Optional.empty();
        }
        if (!taken.add(name.get())) {
            warnOnce("duplicate " + moduleId + " " + toolName, "tool {} of module {} is not exposed: an earlier tool"
                    + " is already exposed as {}", quote(toolName), quote(moduleId), name.get());
            return Optional.empty();
        }
        return name;
    }

    private static List<McpSchema.Tool> toolsOf(UnifiedRuntime runtime, String moduleId) {
        try {
            List<McpSchema.Tool> tools = runtime.mcp(moduleId).tools();
            return tools == null ? List.of() : tools;
        } catch (RuntimeException e) {
            LOG.debug("module {} contributes no tools: {}", moduleId, e.getMessage());
            return List.of();
        }
    }

    private static void warnOnce(String key, String format, Object... arguments) {
        if (WARNED.size() < MAX_REMEMBERED_WARNINGS ? WARNED.add(key) : !WARNED.contains(key)) {
            LOG.warn(format, arguments);
        }
    }

    /**
     * {@code text} in double quotes with control characters, quotes and backslashes escaped ({@code \\uXXXX}), for
     * a log line naming a server's text (a tool or module name, a reason): such text cannot forge a log line.
     */
    public static String quote(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        text.codePoints().forEach(c -> {
            if (c < 0x20 || c >= 0x7f && c < 0xa0 || c == '"' || c == '\\') {
                quoted.append(String.format("\\u%04x", c));
            } else {
                quoted.appendCodePoint(c);
            }
        });
        return quoted.append('"').toString();
    }

    /**
     * A tool result as one text: its {@code structuredContent} as compact JSON when present; else, when every
     * content block is text, the texts joined with {@code "\n"}; else the content blocks as a JSON array in their MCP
     * wire form. Unicode is kept as is (no {@code \\uXXXX} escapes are added).
     */
    public static String resultText(McpSchema.CallToolResult result) {
        Objects.requireNonNull(result, "result");
        if (result.structuredContent() != null) {
            return json(OBJECT, result.structuredContent());
        }
        List<McpSchema.Content> content = result.content() == null ? List.of() : result.content();
        List<String> texts = new ArrayList<>(content.size());
        for (McpSchema.Content block : content) {
            if (!(block instanceof McpSchema.TextContent text) || text.text() == null) {
                return json(CONTENT_LIST, content);
            }
            texts.add(text.text());
        }
        return String.join("\n", texts);
    }

    private static String json(ObjectWriter writer, Object value) {
        try {
            return writer.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tool result cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * A tool call's arguments from the JSON text a framework hands over: {@code null}, an empty or a blank text is
     * {@code {}}; numbers keep their exact value.
     *
     * @throws IllegalArgumentException when {@code json} is not one JSON object
     */
    public static ObjectNode arguments(String json) {
        if (json == null || json.isBlank()) {
            return MAPPER.createObjectNode();
        }
        JsonNode node;
        try {
            node = ARGUMENTS.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the tool arguments are not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (node instanceof ObjectNode object) {
            return object;
        }
        throw new IllegalArgumentException("the tool arguments must be a JSON object, not "
                + (node == null || node.isMissingNode() ? "nothing" : "a JSON " + node.getNodeType().name()
                .toLowerCase(java.util.Locale.ROOT)));
    }
}
