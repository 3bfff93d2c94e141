package org.metaruntime.spring.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.StartMode;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.supervisor.RestartPolicy;

/**
 * The modules of ToolPod manifest folders and of a Claude Desktop config, read and validated by the gateway's
 * reader, with the gateway's mapping: a pod is eager when it has {@code preWarm: true} or declares no tools, else
 * lazy, and its declared tools are listed until it has started. Stateless.
 */
final class ManifestModules {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private ManifestModules() {
    }

    /**
     * The pods of {@code folders} (in order, files by name) then the entries of {@code claudeConfig} (file order).
     *
     * @throws ManifestException with every {@code file:line} problem
     */
    static List<ModuleSources.Entry> read(List<Path> folders, Path claudeConfig) {
        List<Path> manifestFolders = folders == null ? List.of() : List.copyOf(folders);
        if (manifestFolders.isEmpty() && claudeConfig == null) {
            return List.of();
        }
        Catalog catalog = Catalog.load(manifestFolders, claudeConfig, "__");
        if (!catalog.problems().isEmpty()) {
            throw new ManifestException(catalog.problems());
        }
        List<PodManifest> pods = new ArrayList<>(catalog.pods());
        pods.sort(Comparator.comparingInt((PodManifest pod) -> sourceIndex(pod, manifestFolders, claudeConfig))
                .thenComparing(pod -> pod.file().getFileName().toString())
                .thenComparingInt(PodManifest::line));
        List<ModuleSources.Entry> entries = new ArrayList<>();
        for (PodManifest pod : pods) {
            entries.add(entry(pod));
        }
        return entries;
    }

    /** The position of the pod's source: its folder's index, or after every folder for the Claude config. */
    private static int sourceIndex(PodManifest pod, List<Path> folders, Path claudeConfig) {
        Path file = pod.file().toAbsolutePath().normalize();
        if (claudeConfig != null && file.equals(claudeConfig.toAbsolutePath().normalize())) {
            return folders.size();
        }
        for (int i = 0; i < folders.size(); i++) {
            if (folders.get(i).toAbsolutePath().normalize().equals(file.getParent())) {
                return i;
            }
        }
        return folders.size();
    }

    private static ModuleSources.Entry entry(PodManifest pod) {
        List<McpSchema.Tool> tools = declaredTools(pod);
        boolean eager = pod.spawnAtStart();
        ModuleConfig.Builder module = ModuleConfig.builder(pod.name());
        if (pod.isRemote()) {
            module.url(pod.url());
            pod.headers().forEach(module::header);
        } else {
            module.command(pod.command()).workdir(pod.workdir()).env(pod.env());
        }
        if (pod.isBare()) {
            module.bare(tools);
        } else if (pod.mayBeBare()) {
            module.bareUnlessMcp(tools);
        }
        module.healthCheck(pod.healthCheck().enabled() ? pod.healthCheck().interval() : Duration.ZERO)
                .startMode(eager ? StartMode.EAGER : StartMode.LAZY)
                .startupTimeout(pod.startupTimeout())
                .callTimeout(pod.callTimeout())
                .shutdownGrace(Duration.ofMillis(Math.max(100, pod.shutdownTimeout().toMillis() / 3)))
                .restartPolicy(RestartPolicy.ON_FAILURE);
        String source = pod.file() + ":" + pod.line();
        return new ModuleSources.Entry(module.build(), true,
                new DeclaredModules.Declared(pod.name(), eager, false, tools, source));
    }

    /** A pod's declared tools as MCP tool descriptors: each definition with its name. */
    private static List<McpSchema.Tool> declaredTools(PodManifest pod) {
        return pod.tools().stream().map(tool -> {
            ObjectNode definition = tool.definition();
            definition.put("name", tool.name());
            return MAPPER.convertValue(definition, McpSchema.Tool.class);
        }).toList();
    }
}
