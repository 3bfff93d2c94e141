package org.metaruntime.core;

import java.net.URI;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a module runs: a {@link Command} the runtime spawns, or a {@link Remote} MCP server it connects to. Set by
 * {@link ModuleConfig.Builder#command(List)} (with {@code workdir} and {@code env}) or
 * {@link ModuleConfig.Builder#url(URI)} (with {@code header}); read with {@link ModuleConfig#source()}.
 *
 * <pre>{@code
 * switch (module.source()) {
 *     case ModuleSource.Command c -> System.out.println("spawns " + c.argv());
 *     case ModuleSource.Remote r -> System.out.println("connects to " + r.url());
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface ModuleSource {

    /**
     * A process the runtime spawns.
     *
     * @param argv    the argv (no shell); an empty one is refused by {@link MetaConfig#validate()}
     * @param workdir the working directory, or {@code null} for the host's
     * @param env     environment put on top of the inherited one (before the pre-spawn environment), in order
     */
    record Command(List<String> argv, Path workdir, Map<String, String> env) implements ModuleSource {
        public Command {
            argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
            env = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(env, "env")));
        }

        @Override
        public String toString() {
            return "Command[argv=" + argv + ", workdir=" + workdir + ", env=" + env.keySet() + "]";
        }
    }

    /**
     * A remote MCP server reached over Streamable HTTP; it is never spawned.
     *
     * @param url     the absolute http(s) endpoint
     * @param headers the headers sent with every request, in order (values are secrets: never logged)
     */
    record Remote(URI url, Map<String, String> headers) implements ModuleSource {
        public Remote {
            Objects.requireNonNull(url, "url");
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(headers, "headers")));
        }

        @Override
        public String toString() {
            return "Remote[url=" + url + ", headers=" + headers.keySet() + "]";
        }
    }
}
