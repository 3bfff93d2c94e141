package org.metaruntime.test.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.StartMode;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.supervisor.RestartPolicy;

/**
 * The modules of a folder of ToolPod manifests (files by name), with the gateway's mapping: pod name = module id;
 * command or url; workdir, env, call, startup and shutdown timeouts, health check, restarts on failure; bare or
 * detected JSON-RPC pods with their declared tools; a pod is started with the runtime when it has {@code preWarm: true} or declares no tools, else at
 * its first call. An invalid manifest fails the test with the gateway's {@code file:line: message} problems.
 */
public final class Manifests {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private Manifests() {
    }

    /** The modules of the manifests in {@code folder}, for the test class {@code testClass} (named in errors). */
    public static MetaConfig read(Class<?> testClass, String folder) {
        Path path = Path.of(folder).toAbsolutePath().normalize();
        Catalog catalog = Catalog.load(List.of(path), null, "__");
        if (!catalog.problems().isEmpty()) {
            throw new ExtensionConfigurationException("@MetaRuntimeTest(manifests = \"" + folder + "\") of "
                    + testClass.getSimpleName() + ": "
                    + catalog.problems().stream().map(Object::toString).collect(Collectors.joining("; ")));
        }
        MetaConfig.Builder config = MetaConfig.builder();
        List<PodManifest> pods = new ArrayList<>(catalog.pods());
        pods.sort(Comparator.comparing((PodManifest pod) -> pod.file().getFileName().toString())
                .thenComparingInt(PodManifest::line));
        for (PodManifest pod : pods) {
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
            module.healthCheck(pod.healthCheck().enabled() ? pod.healthCheck().interval() : Duration.ZERO)
                    .startMode(pod.spawnAtStart() ? StartMode.EAGER : StartMode.LAZY)
                    .startupTimeout(pod.startupTimeout())
                    .callTimeout(pod.callTimeout())
                    .shutdownGrace(stepGrace(pod.shutdownTimeout()))
                    .restartPolicy(RestartPolicy.ON_FAILURE);
            config.module(module.build()).preSpawn(PreSpawnData.mcp(pod.name())).discover(pod.name());
        }
        return config.build();
    }

    /** The stop ladder has three steps (close stdin, SIGTERM, SIGKILL): each gets a third of the pod's bound. */
    private static Duration stepGrace(Duration shutdownTimeout) {
        return Duration.ofMillis(Math.max(100, shutdownTimeout.toMillis() / 3));
    }

    private static List<McpSchema.Tool> declaredTools(PodManifest pod) {
        return pod.tools().stream().map(tool -> {
            ObjectNode definition = tool.definition().deepCopy();
            definition.put("name", tool.name());
            try {
                return MAPPER.treeToValue(definition, McpSchema.Tool.class);
            } catch (JsonProcessingException e) {
                throw new ExtensionConfigurationException(pod.file() + ":" + tool.line() + ": tool " + tool.name()
                        + " is not an MCP tool: " + e.getOriginalMessage(), e);
            }
        }).toList();
    }
}
