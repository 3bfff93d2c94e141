package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.supervisor.RestartPolicy;

/**
 * A pod as a module of the runtime: pod name = module id; command (with workdir and env) or url (with headers);
 * bare or maybe-bare pods with their declared tools; health check, startup and call timeouts; the pod's shutdown
 * bound split over the three steps of the stop ladder; restarts on failure. The caller chooses the start mode.
 * Stateless.
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
        if (pod.isBare()) {
            module.bare(declaredTools(pod));
        } else if (pod.mayBeBare()) {
            module.bareUnlessMcp(declaredTools(pod));
        }
        if (!pod.isBare()) {
            module.protocolEra(pod.protocolEra());
        }
        return module.healthCheck(pod.healthCheck().enabled() ? pod.healthCheck().interval() : Duration.ZERO)
                .startupTimeout(pod.startupTimeout())
                .callTimeout(pod.callTimeout())
                .shutdownGrace(stepGrace(pod.shutdownTimeout()))
                .restartPolicy(RestartPolicy.ON_FAILURE);
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

    /** The stop ladder has three steps (close stdin, SIGTERM, SIGKILL): each gets a third of the pod's bound. */
    private static Duration stepGrace(Duration shutdownTimeout) {
        return Duration.ofMillis(Math.max(100, shutdownTimeout.toMillis() / 3));
    }
}
