package org.metaruntime.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * What to spawn for a module: the argv (no shell), the working directory and the environment, plus the
 * bounds on what the child may make the runtime hold. Immutable and thread-safe; built with
 * {@link #builder(String)}.
 *
 * <p>The environment of the child is built in this order, later entries winning: the host's environment
 * (all of it when {@code inheritEnv} is true, else only the names in {@code passThroughEnv}), then
 * {@code env}, then {@value #TOKEN_ENV} (a unique token per process, see {@link ModuleProcess}) and {@value #HOST_TOKEN_ENV}
 * (the same for every child of this JVM).
 *
 * <pre>{@code
 * ProcessSpec spec = ProcessSpec.builder("router")
 *         .command("python3", "router.py")
 *         .workdir(Path.of("modules/router"))
 *         .env("LOG_LEVEL", "debug")
 *         .inheritEnv(false)
 *         .passThroughEnv(Set.of("PATH", "HOME"))
 *         .build();
 * }</pre>
 *
 * @param moduleId        the module this process belongs to; not blank
 * @param command         the argv: executable then arguments, not empty, no shell involved
 * @param workdir         the working directory, or {@code null} for the host's current directory
 * @param env             variables put on top of the inherited environment
 * @param inheritEnv      true (default): start from the host's whole environment; false: only from
 *                        the names in {@code passThroughEnv}
 * @param passThroughEnv  host variables copied when {@code inheritEnv} is false (ignored otherwise)
 * @param maxLineBytes    the longest stdout line, in bytes before its {@code \n} (default 16 MiB)
 * @param stderrTailBytes how many of the newest stderr bytes are kept (default 64 KiB; zero keeps none)
 * @param stdinQueueBytes how many bytes {@link ModuleProcess#send(String)} may queue for a child that has
 *                        not read them yet (default 16 MiB); a send beyond it fails at once
 * @param exitDrainTimeout how long after the process exited the runtime waits for its stdout and stderr to
 *                        reach end of file before it kills what is left of its tree (default 500 ms; zero: at
 *                        once; longer than {@link Deadline#MAX_TIMEOUT}: clamped to it)
 */
public record ProcessSpec(String moduleId, List<String> command, Path workdir, Map<String, String> env,
                          boolean inheritEnv, Set<String> passThroughEnv, int maxLineBytes, int stderrTailBytes,
                          int stdinQueueBytes, Duration exitDrainTimeout) {

    /** The variable holding the per-process token that marks the child and every descendant. */
    public static final String TOKEN_ENV = "META_PROCESS_TOKEN";
    /**
     * The variable holding the token of the host JVM: the same for every child of this JVM, and inherited by its
     * descendants; when the JVM dies, every process carrying it is killed.
     */
    public static final String HOST_TOKEN_ENV = "META_HOST_TOKEN";
    /** Default {@link #maxLineBytes()}: 16 MiB. */
    public static final int DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
    /** Default {@link #stderrTailBytes()}: 64 KiB. */
    public static final int DEFAULT_STDERR_TAIL_BYTES = 64 * 1024;
    /** Default {@link #stdinQueueBytes()}: 16 MiB. */
    public static final int DEFAULT_STDIN_QUEUE_BYTES = 16 * 1024 * 1024;
    /** Default {@link #exitDrainTimeout()}: 500 ms. */
    public static final Duration DEFAULT_EXIT_DRAIN_TIMEOUT = Duration.ofMillis(500);

    /**
     * Validates the spec and copies its collections.
     *
     * @throws InvalidOptionException naming the refused field ({@code command}, {@code env}, {@code maxLineBytes}, ...)
     */
    public ProcessSpec {
        Objects.requireNonNull(moduleId, "moduleId");
        if (moduleId.isBlank()) {
            throw new InvalidOptionException("moduleId", "must not be blank");
        }
        command = List.copyOf(Objects.requireNonNull(command, "command"));
        if (command.isEmpty() || command.get(0).isBlank()) {
            throw new InvalidOptionException("command", "module '" + moduleId + "' must name an executable");
        }
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        for (Map.Entry<String, String> e : env.entrySet()) {
            requireVariableName(e.getKey(), "env");
            if (e.getValue().indexOf('\0') >= 0) {
                throw new InvalidOptionException("env", "the value of " + e.getKey() + " contains a NUL character");
            }
        }
        for (String owned : List.of(TOKEN_ENV, HOST_TOKEN_ENV)) {
            if (env.containsKey(owned)) {
                throw new InvalidOptionException("env", "must not set " + owned + ": the runtime owns it");
            }
        }
        passThroughEnv = Set.copyOf(Objects.requireNonNull(passThroughEnv, "passThroughEnv"));
        passThroughEnv.forEach(name -> requireVariableName(name, "passThroughEnv"));
        OptionChecks.atLeast(maxLineBytes, 1, "maxLineBytes");
        OptionChecks.nonNegative(stderrTailBytes, "stderrTailBytes");
        OptionChecks.atLeast(stdinQueueBytes, 1, "stdinQueueBytes");
        exitDrainTimeout = Deadline.clamp(OptionChecks.nonNegative(exitDrainTimeout, "exitDrainTimeout"));
    }

    private static void requireVariableName(String name, String field) {
        if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
            throw new InvalidOptionException(field, "has an invalid variable name: '" + name + "'");
        }
    }

    /** A builder for the module's process, with the documented defaults. */
    public static Builder builder(String moduleId) {
        return new Builder(Objects.requireNonNull(moduleId, "moduleId"));
    }

    /** Builds a {@link ProcessSpec}. Not thread-safe; {@link #build()} validates everything. */
    public static final class Builder {
        private final String moduleId;
        private List<String> command = List.of();
        private Path workdir;
        private final Map<String, String> env = new LinkedHashMap<>();
        private boolean inheritEnv = true;
        private Set<String> passThroughEnv = Set.of();
        private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
        private int stderrTailBytes = DEFAULT_STDERR_TAIL_BYTES;
        private int stdinQueueBytes = DEFAULT_STDIN_QUEUE_BYTES;
        private Duration exitDrainTimeout = DEFAULT_EXIT_DRAIN_TIMEOUT;

        private Builder(String moduleId) {
            this.moduleId = moduleId;
        }

        /** The argv: executable then arguments. */
        public Builder command(String... command) {
            return command(List.of(Objects.requireNonNull(command, "command")));
        }

        /** The argv: executable then arguments. */
        public Builder command(List<String> command) {
            this.command = List.copyOf(Objects.requireNonNull(command, "command"));
            return this;
        }

        /** The working directory; {@code null} (the default) means the host's current directory. */
        public Builder workdir(Path workdir) {
            this.workdir = workdir;
            return this;
        }

        /** Adds all these variables; later calls win over earlier ones. */
        public Builder env(Map<String, String> env) {
            Objects.requireNonNull(env, "env").forEach(this::env);
            return this;
        }

        /** Adds one variable; a later call for the same name wins. */
        public Builder env(String name, String value) {
            env.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** True (default): start from the host's environment; false: only from {@link #passThroughEnv(Set)}. */
        public Builder inheritEnv(boolean inheritEnv) {
            this.inheritEnv = inheritEnv;
            return this;
        }

        /** The host variables copied when {@code inheritEnv} is false. */
        public Builder passThroughEnv(Set<String> names) {
            this.passThroughEnv = Set.copyOf(Objects.requireNonNull(names, "names"));
            return this;
        }

        /** The longest stdout line in bytes (default 16 MiB). */
        public Builder maxLineBytes(int maxLineBytes) {
            this.maxLineBytes = maxLineBytes;
            return this;
        }

        /** How many of the newest stderr bytes are kept (default 64 KiB). */
        public Builder stderrTailBytes(int stderrTailBytes) {
            this.stderrTailBytes = stderrTailBytes;
            return this;
        }

        /** How many bytes may wait for the child's stdin (default 16 MiB). */
        public Builder stdinQueueBytes(int stdinQueueBytes) {
            this.stdinQueueBytes = stdinQueueBytes;
            return this;
        }

        /** How long the pipes get to close after the process exited, before its leftovers die (default 500 ms). */
        public Builder exitDrainTimeout(Duration exitDrainTimeout) {
            this.exitDrainTimeout = Objects.requireNonNull(exitDrainTimeout, "exitDrainTimeout");
            return this;
        }

        /** The validated spec. */
        public ProcessSpec build() {
            return new ProcessSpec(moduleId, command, workdir, env, inheritEnv, passThroughEnv, maxLineBytes,
                    stderrTailBytes, stdinQueueBytes, exitDrainTimeout);
        }
    }
}
