package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleProtocol;
import org.metaruntime.mcp.McpSessionMode;
import org.metaruntime.supervisor.RestartPolicy;

/**
 * A pod as a module of the runtime, field for field: pod name = module id; {@code command} (with {@code workdir} and
 * {@code env}) or {@code url} (with {@code headers}) = the module's source; {@code protocol} with
 * {@code protocolEra} and the declared tools = the module's protocol; {@code healthCheck}, {@code startupTimeout},
 * {@code callTimeout} and {@code shutdownTimeout} = the module's options of the same names; restarts on failure. The
 * values are the manifest's (its defaults are {@link PodManifest}'s). The caller chooses the start mode. Stateless.
 */
public final class PodModuleMapping {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private PodModuleMapping() {
    }

    /** The module of {@code pod}, without a start mode. */
    public static ModuleConfig.Builder module(PodManifest pod) {
        ModuleConfig.Builder module = ModuleConfig.builder(pod.name());
        if (pod.isRemote()) {
            module.url(pod.url());
            pod.headers().forEach(module::header);
        } else {
            module.command(pod.command()).workdir(pod.workdir()).env(pod.env());
        }
        return module.protocol(protocol(pod))
                .healthCheck(pod.healthCheck().enabled() ? pod.healthCheck().interval() : Duration.ZERO)
                .startupTimeout(pod.startupTimeout())
                .callTimeout(pod.callTimeout())
                .shutdownTimeout(pod.shutdownTimeout())
                .restartPolicy(RestartPolicy.ON_FAILURE);
    }

    /**
     * What {@code pod} speaks: bare JSON-RPC with its declared tools ({@code protocol: jsonrpc}); else MCP in its era,
     * falling back to its declared tools when its answer to {@code initialize} decides ({@link PodManifest#mayBeBare()}).
     */
    public static ModuleProtocol protocol(PodManifest pod) {
        if (pod.isBare()) {
            return ModuleProtocol.bare(declaredTools(pod));
        }
        return new ModuleProtocol.Mcp(McpSessionMode.PERSISTENT, Optional.of(pod.protocolEra()),
                pod.mayBeBare() ? Optional.of(declaredTools(pod)) : Optional.empty());
    }

    /**
     * The pod's declared tools as MCP tool descriptors (each definition with its name).
     *
     * @throws IllegalArgumentException naming the pod, the tool and its line when a definition is not an MCP tool
     */
    public static List<McpSchema.Tool> declaredTools(PodManifest pod) {
        return pod.tools().stream().map(tool -> {
            ObjectNode definition = tool.definition().deepCopy();
            definition.put("name", tool.name());
            try {
                return MAPPER.treeToValue(definition, McpSchema.Tool.class);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(pod.file() + ":" + tool.line() + ": pod " + pod.name() + " tool "
                        + tool.name() + ": the declared tool is not an MCP tool: " + e.getOriginalMessage(), e);
            }
        }).toList();
    }
}
