package org.metaruntime.core;

import java.util.Objects;
import java.util.Set;
import org.metaruntime.core.internal.Checks;

/**
 * What every module process gets: its environment and the limits of its pipes.
 *
 * <pre>{@code
 * ProcessOptions hidden = ProcessOptions.defaults().withInheritEnv(false).withPassThroughEnv(Set.of("PATH", "HOME"));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param inheritEnv      whether a module starts from the host's environment; default {@code true}
 * @param passThroughEnv  the host variables passed to modules when {@code inheritEnv} is false; default none
 * @param maxLineBytes    the longest stdout line accepted from a child; default 16 MiB
 * @param stderrTailBytes how many bytes of a child's stderr are kept for errors and events; default 64 KiB
 * @param stdinQueueBytes how many bytes may wait to be written to a child's stdin; default 16 MiB
 */
public record ProcessOptions(boolean inheritEnv, Set<String> passThroughEnv, int maxLineBytes, int stderrTailBytes,
                             int stdinQueueBytes) {

    private static final ProcessOptions DEFAULTS = new ProcessOptions(true, Set.of(), 16 * 1024 * 1024, 64 * 1024,
            16 * 1024 * 1024);

    /** Validates every component; throws {@link ConfigException} naming the field. */
    public ProcessOptions {
        passThroughEnv = Set.copyOf(Objects.requireNonNull(passThroughEnv, "passThroughEnv"));
        Checks.atLeast(maxLineBytes, 1, "maxLineBytes");
        Checks.atLeast(stderrTailBytes, 0, "stderrTailBytes");
        Checks.atLeast(stdinQueueBytes, 1, "stdinQueueBytes");
    }

    /** Inherit the environment, 16 MiB lines, 64 KiB of stderr, 16 MiB of queued stdin. */
    public static ProcessOptions defaults() {
        return DEFAULTS;
    }

    public ProcessOptions withInheritEnv(boolean inherit) {
        return new ProcessOptions(inherit, passThroughEnv, maxLineBytes, stderrTailBytes, stdinQueueBytes);
    }

    public ProcessOptions withPassThroughEnv(Set<String> names) {
        return new ProcessOptions(inheritEnv, names, maxLineBytes, stderrTailBytes, stdinQueueBytes);
    }

    public ProcessOptions withMaxLineBytes(int max) {
        return new ProcessOptions(inheritEnv, passThroughEnv, max, stderrTailBytes, stdinQueueBytes);
    }

    public ProcessOptions withStderrTailBytes(int bytes) {
        return new ProcessOptions(inheritEnv, passThroughEnv, maxLineBytes, bytes, stdinQueueBytes);
    }

    public ProcessOptions withStdinQueueBytes(int bytes) {
        return new ProcessOptions(inheritEnv, passThroughEnv, maxLineBytes, stderrTailBytes, bytes);
    }
}
