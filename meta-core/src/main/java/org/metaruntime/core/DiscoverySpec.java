package org.metaruntime.core;

import java.util.List;
import java.util.Objects;

/**
 * The modules that were discovered, in start order. Configured modules that are not listed here are
 * known to the runtime but not started.
 *
 * <pre>{@code
 * DiscoverySpec discovery = new DiscoverySpec("team-a", List.of("router", "weather"));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param namespace the namespace the modules were discovered in (free text, may be empty)
 * @param modules   the discovered module ids, in start order
 */
public record DiscoverySpec(String namespace, List<String> modules) {

    /** The namespace used when none is given. */
    public static final String DEFAULT_NAMESPACE = "default";

    public DiscoverySpec {
        Objects.requireNonNull(namespace, "namespace");
        modules = List.copyOf(Objects.requireNonNull(modules, "modules"));
    }

    /** Discovery of {@code modules} in the {@link #DEFAULT_NAMESPACE}. */
    public static DiscoverySpec of(String... modules) {
        return new DiscoverySpec(DEFAULT_NAMESPACE, List.of(modules));
    }

    /** The same namespace with another module list. */
    public DiscoverySpec withModules(List<String> newModules) {
        return new DiscoverySpec(namespace, newModules);
    }
}
