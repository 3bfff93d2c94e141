package org.metaruntime.supervisor.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.proc.ProcessTree;
import org.metaruntime.supervisor.internal.spawn.SharedLauncher;

/**
 * Spawns a child from a {@link ProcessSpec}: the argv (no shell), the working directory, the environment (the
 * inherited one or only the pass-through names, then the ProcessSpec's variables, then
 * {@value ProcessSpec#TOKEN_ENV}{@code =<unique token>} and {@value ProcessSpec#HOST_TOKEN_ENV}), all three stdio streams as pipes. On Linux, once this JVM holds many
 * descriptors, the child is started by the launcher ({@link SharedLauncher}) with FIFOs for its stdio instead, so
 * that a spawn does not cost more as the JVM holds more. Stateless and thread-safe.
 */
public final class ProcessLauncher {

    /**
     * A spawned child.
     *
     * @param process          the child
     * @param token            the value of {@value ProcessSpec#TOKEN_ENV} it and its descendants carry
     * @param beforeSpawn      {@link ProcessTree#beforeSpawn()} taken just before the spawn
     */
    public record Launched(Process process, String token, ProcessTree.SpawnMark beforeSpawn) {
        /** Validates the record. */
        public Launched {
            Objects.requireNonNull(process, "process");
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(beforeSpawn, "beforeSpawn");
        }
    }

    private ProcessLauncher() {
    }

    /**
     * Spawns the child.
     *
     * @throws ProcessBoundaryException with {@link ProcessBoundaryError.SpawnFailed} naming the command (and the
     *                                  working directory) when it cannot be started
     */
    public static Launched launch(ProcessSpec spec) {
        Objects.requireNonNull(spec, "spec");
        Path workdir = spec.workdir();
        if (workdir != null && !Files.isDirectory(workdir)) {
            throw spawnFailed(spec, "working directory " + workdir + " is not a directory", null);
        }
        ProcessBuilder builder = new ProcessBuilder(spec.command())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.PIPE);
        if (workdir != null) {
            builder.directory(workdir.toFile());
        }
        String token = UUID.randomUUID().toString();
        Map<String, String> env = builder.environment();
        if (!spec.inheritEnv()) {
            env.clear();
            for (String name : spec.passThroughEnv()) {
                String value = System.getenv(name);
                if (value != null) {
                    env.put(name, value);
                }
            }
        }
        env.putAll(spec.env());
        env.put(ProcessSpec.TOKEN_ENV, token);
        env.put(ProcessSpec.HOST_TOKEN_ENV, HostWatchdog.hostToken());
        HostWatchdog.ensureStarted();
        ProcessTree.SpawnMark beforeSpawn = ProcessTree.beforeSpawn();
        try {
            if (SharedLauncher.wanted()) {
                Optional<Process> launched = SharedLauncher.spawn(builder.command(), workdir, Map.copyOf(env));
                if (launched.isPresent()) {
                    return new Launched(launched.get(), token, beforeSpawn);
                }
            }
            return new Launched(builder.start(), token, beforeSpawn);
        } catch (IOException | RuntimeException e) {
            throw spawnFailed(spec, e.getMessage(), e);
        }
    }

    /** A {@link ProcessBoundaryError.SpawnFailed} naming the command, the working directory and the reason. */
    public static ProcessBoundaryException spawnFailed(ProcessSpec spec, String reason, Throwable cause) {
        String where = spec.workdir() == null ? "" : " in " + spec.workdir();
        return new ProcessBoundaryException(spec.moduleId(),
                new ProcessBoundaryError.SpawnFailed("cannot start " + spec.command() + where + ": " + reason), cause);
    }
}
