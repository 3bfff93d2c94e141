package org.metaruntime.test.internal;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.gateway.ManifestException;
import org.metaruntime.gateway.PodModules;

/**
 * The modules of a folder of ToolPod manifests, read, validated and mapped by the gateway ({@link PodModules}): a pod
 * is started with the runtime when it has {@code preWarm: true} or declares no tools, else at its first call. An
 * invalid manifest fails the test with the gateway's {@code file:line: message} problems.
 */
public final class Manifests {

    private Manifests() {
    }

    /** The modules of the manifests in {@code folder}, for the test class {@code testClass} (named in errors). */
    public static MetaConfig read(Class<?> testClass, String folder) {
        List<PodModules.Pod> pods;
        try {
            pods = PodModules.read(List.of(Path.of(folder).toAbsolutePath().normalize()), null);
        } catch (ManifestException | IllegalArgumentException e) {
            String problems = e instanceof ManifestException m
                    ? m.problems().stream().map(Object::toString).collect(Collectors.joining("; "))
                    : e.getMessage();
            throw new ExtensionConfigurationException("@MetaRuntimeTest(manifests = \"" + folder + "\") of "
                    + testClass.getSimpleName() + ": " + problems, e);
        }
        MetaConfig.Builder config = MetaConfig.builder();
        for (PodModules.Pod pod : pods) {
            String id = pod.module().id();
            config.module(pod.module()).preSpawn(PreSpawnData.mcp(id)).discover(id);
        }
        return config.build();
    }
}
