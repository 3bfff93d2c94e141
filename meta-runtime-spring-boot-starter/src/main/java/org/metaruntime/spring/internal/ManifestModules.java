package org.metaruntime.spring.internal;

import java.nio.file.Path;
import java.util.List;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.PodModules;

/**
 * The modules of ToolPod manifest folders and of a Claude Desktop config, read, validated and mapped by the gateway
 * ({@link PodModules}); a lazy pod's declared tools are listed until it has started. Stateless.
 */
final class ManifestModules {

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
        return PodModules.read(manifestFolders, claudeConfig).stream()
                .map(pod -> new ModuleSources.Entry(pod.module(), new DeclaredModules.Declared(
                        pod.module().id(), pod.eager(), false, pod.declaredTools(), pod.file() + ":" + pod.line())))
                .toList();
    }
}
