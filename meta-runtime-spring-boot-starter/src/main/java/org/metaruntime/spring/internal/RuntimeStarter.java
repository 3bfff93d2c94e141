package org.metaruntime.spring.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.metaruntime.core.ModuleCallListener;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.spring.MetaRuntimeStartupException;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds and starts the application's runtime, and applies {@code fail-fast}. Stateless. */
public final class RuntimeStarter {

    private static final Logger LOG = LoggerFactory.getLogger(RuntimeStarter.class);

    private RuntimeStarter() {
    }

    /**
     * The started runtime of {@code modules}.
     *
     * @param stateDir the runtime's state folder (created when missing), or null
     * @param listener told of every call, or null
     * @param failFast whether an eager module that did not start fails the start
     * @throws MetaRuntimeStartupException when {@code failFast} is set and an eager module did not start (the runtime
     *                                     is closed first)
     */
    public static UnifiedRuntime start(DeclaredModules modules, Path stateDir, ModuleCallListener listener, boolean failFast) {
        UnifiedRuntime.Builder builder = UnifiedRuntime.builder(modules.config());
        if (stateDir != null) {
            try {
                Files.createDirectories(stateDir);
            } catch (IOException e) {
                throw new UncheckedIOException("meta.runtime.state-dir: cannot create " + stateDir, e);
            }
            builder.persistentState(stateDir);
        }
        if (listener != null) {
            builder.callListener(listener);
        }
        UnifiedRuntime runtime = builder.start();
        Map<String, String> failed = failedEagerModules(runtime, modules);
        if (!failed.isEmpty()) {
            if (failFast) {
                runtime.close();
                throw new MetaRuntimeStartupException(failed);
            }
            failed.forEach((id, error) -> LOG.warn("module {} did not start; the application runs without it: {}",
                    id, error));
        }
        return runtime;
    }

    /** The eager modules whose startup did not end {@code Healthy}, with their errors, in declaration order. */
    static Map<String, String> failedEagerModules(UnifiedRuntime runtime, DeclaredModules modules) {
        Map<String, String> failed = new LinkedHashMap<>();
        Map<String, ModuleSupervisorReport> reports = runtime.supervisorReport();
        for (DeclaredModules.Declared module : modules.modules()) {
            if (!module.eager()) {
                continue;
            }
            ModuleSupervisorReport report = reports.get(module.id());
            boolean healthy = runtime.loadedModules().contains(module.id())
                    && (report == null || report.state() == ModuleHealthState.HEALTHY);
            if (!healthy) {
                failed.put(module.id(), ModuleStates.errorOf(runtime, module.id(), report));
            }
        }
        return failed;
    }
}
