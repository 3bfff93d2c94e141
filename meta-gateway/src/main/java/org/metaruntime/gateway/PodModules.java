package org.metaruntime.gateway;

import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.StartMode;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.manifest.PodModuleMapping;

/**
 * ToolPod manifests and a Claude Desktop config read as modules of a {@code UnifiedRuntime}, validated and mapped as
 * the gateway maps its pods (docs/gateway.md): pod name = module id; {@code command} or {@code url}; {@code workdir}
 * relative to the manifest's folder; {@code env}; {@code callTimeout}, {@code startupTimeout},
 * {@code shutdownTimeout}, {@code healthCheck}; restarts on failure; a pod that does not answer as an MCP server is
 * served as a bare JSON-RPC pod with its declared tools. Each module declares its protocol, so it needs no pre-spawn
 * marker. A pod is eager when it has {@code preWarm: true} or declares no tools, else lazy. Each {@code mcpServers}
 * entry of a Claude Desktop config is an eager pod.
 *
 * <pre>{@code
 * MetaConfig.Builder config = MetaConfig.builder();
 * for (PodModules.Pod pod : PodModules.read(List.of(Path.of("pods")), null)) {
 *     config.module(pod.module()).discover(pod.module().id());
 * }
 * }</pre>
 */
public final class PodModules {

    private PodModules() {
    }

    /**
     * One pod as a module.
     *
     * @param module        its module, with the start mode above
     * @param eager         whether it starts with the runtime
     * @param declaredTools the tools its manifest declares (empty when it declares none)
     * @param file          the manifest or config file it comes from
     * @param line          the line of that file where it is declared
     */
    public record Pod(ModuleConfig module, boolean eager, List<McpSchema.Tool> declaredTools, Path file, int line) {
        public Pod {
            Objects.requireNonNull(module, "module");
            declaredTools = List.copyOf(declaredTools);
            Objects.requireNonNull(file, "file");
        }
    }

    /**
     * The pods of {@code manifestFolders} (folders in order, files by name, pods in file order), then the entries of
     * {@code claudeConfig} (in file order; {@code null} for none).
     *
     * @throws ManifestException with every {@code file:line} problem of the manifests and the config
     */
    public static List<Pod> read(List<Path> manifestFolders, Path claudeConfig) {
        List<Path> folders = List.copyOf(manifestFolders);
        Catalog catalog = Catalog.load(folders, claudeConfig, "__");
        if (!catalog.problems().isEmpty()) {
            throw new ManifestException(catalog.problems());
        }
        List<PodManifest> pods = new ArrayList<>(catalog.pods());
        pods.sort(Comparator.comparingInt((PodManifest pod) -> sourceIndex(pod, folders, claudeConfig))
                .thenComparing(pod -> pod.file().getFileName().toString())
                .thenComparingInt(PodManifest::line));
        List<Pod> modules = new ArrayList<>();
        for (PodManifest pod : pods) {
            boolean eager = pod.spawnAtStart();
            ModuleConfig module = PodModuleMapping.module(pod).startMode(eager ? StartMode.EAGER : StartMode.LAZY)
                    .build();
            modules.add(new Pod(module, eager, PodModuleMapping.declaredTools(pod), pod.file(), pod.line()));
        }
        return List.copyOf(modules);
    }

    /** The index of the folder holding the pod's file; after every folder for the Claude config. */
    private static int sourceIndex(PodManifest pod, List<Path> folders, Path claudeConfig) {
        Path file = pod.file().toAbsolutePath().normalize();
        if (claudeConfig != null && file.equals(claudeConfig.toAbsolutePath().normalize())) {
            return folders.size();
        }
        Path parent = file.getParent();
        for (int i = 0; i < folders.size(); i++) {
            if (folders.get(i).toAbsolutePath().normalize().equals(parent)) {
                return i;
            }
        }
        return folders.size();
    }
}
