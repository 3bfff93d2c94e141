package org.metaruntime.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.metaruntime.core.internal.Checks;

/**
 * What every module process gets: its environment and the limits of its pipes.
 *
 * <pre>{@code
 * ProcessOptions hidden = ProcessOptions.builder().inheritEnv(false).passThroughEnv(Set.of("PATH", "HOME")).build();
 * ProcessOptions tagged = ProcessOptions.builder().env(Map.of("RUN_ID", "nightly-42")).build();
 * }</pre>
 *
 * <p>A module process's environment is built in layers, a later one winning: the host's environment (all of it, or
 * the {@code passThroughEnv} names), then {@link #env()}, then the module's own {@code env}, then its pre-spawn
 * environment.
 *
 * <p>Immutable and thread-safe.
 *
 * @param inheritEnv      whether a module starts from the host's environment; default {@code true}
 * @param passThroughEnv  the host variables passed to modules when {@code inheritEnv} is false; default none
 * @param env             variables added to the environment of every module process the runtime spawns (a
 *                        module's own {@code env} and pre-spawn environment win over them); default none. Values
 *                        are never logged.
 * @param maxLineBytes    the longest stdout line accepted from a child; default 16 MiB
 * @param stderrTailBytes how many bytes of a child's stderr are kept for errors and events; default 64 KiB
 * @param stdinQueueBytes how many bytes may wait to be written to a child's stdin; default 16 MiB
 */
public record ProcessOptions(boolean inheritEnv, Set<String> passThroughEnv, Map<String, String> env,
                             int maxLineBytes, int stderrTailBytes, int stdinQueueBytes) {

    private static final ProcessOptions DEFAULTS = new ProcessOptions(true, Set.of(), Map.of(), 16 * 1024 * 1024,
            64 * 1024, 16 * 1024 * 1024);

    /** Validates every component; throws {@link ConfigException} naming the field. */
    public ProcessOptions {
        passThroughEnv = Set.copyOf(Objects.requireNonNull(passThroughEnv, "passThroughEnv"));
        Objects.requireNonNull(env, "env").forEach((name, value) -> {
            if (name == null || name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
                throw new ConfigException("process.env", "not a variable name: '" + name + "'");
            }
            if (value == null || value.indexOf('\0') >= 0) {
                throw new ConfigException("process.env", "variable " + name + " has no value or a NUL character");
            }
        });
        env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
        Checks.atLeast(maxLineBytes, 1, "maxLineBytes");
        Checks.nonNegative(stderrTailBytes, "stderrTailBytes");
        Checks.atLeast(stdinQueueBytes, 1, "stdinQueueBytes");
    }

    /** Inherit the environment, 16 MiB lines, 64 KiB of stderr, 16 MiB of queued stdin. */
    public static ProcessOptions defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return DEFAULTS.toBuilder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.inheritEnv = inheritEnv;
        b.passThroughEnv = passThroughEnv;
        b.env = env;
        b.maxLineBytes = maxLineBytes;
        b.stderrTailBytes = stderrTailBytes;
        b.stdinQueueBytes = stdinQueueBytes;
        return b;
    }

    /** Builds {@link ProcessOptions}; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private boolean inheritEnv;
        private Set<String> passThroughEnv;
        private Map<String, String> env;
        private int maxLineBytes;
        private int stderrTailBytes;
        private int stdinQueueBytes;

        private Builder() {
        }

        /** Sets {@link ProcessOptions#inheritEnv()}. */
        public Builder inheritEnv(boolean inherit) {
            this.inheritEnv = inherit;
            return this;
        }

        /** Sets {@link ProcessOptions#passThroughEnv()}. */
        public Builder passThroughEnv(Set<String> names) {
            this.passThroughEnv = names;
            return this;
        }

        /** Sets {@link ProcessOptions#env()}. */
        public Builder env(Map<String, String> variables) {
            this.env = variables;
            return this;
        }

        /** Sets {@link ProcessOptions#maxLineBytes()}. */
        public Builder maxLineBytes(int max) {
            this.maxLineBytes = max;
            return this;
        }

        /** Sets {@link ProcessOptions#stderrTailBytes()}. */
        public Builder stderrTailBytes(int bytes) {
            this.stderrTailBytes = bytes;
            return this;
        }

        /** Sets {@link ProcessOptions#stdinQueueBytes()}. */
        public Builder stdinQueueBytes(int bytes) {
            this.stdinQueueBytes = bytes;
            return this;
        }

        /**
         * The options.
         *
         * @throws ConfigException naming the first invalid field
         */
        public ProcessOptions build() {
            return new ProcessOptions(inheritEnv, passThroughEnv, env, maxLineBytes, stderrTailBytes, stdinQueueBytes);
        }
    }
}
