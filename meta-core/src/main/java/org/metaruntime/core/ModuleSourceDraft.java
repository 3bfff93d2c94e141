package org.metaruntime.core;

import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where a {@link ModuleConfig.Builder}'s module runs, as it is set: a command with its workdir and environment, or a
 * url with its headers. Each value is checked as it is set; {@link #build()} checks that the two kinds are not mixed.
 *
 * <p>Not thread-safe.
 */
final class ModuleSourceDraft {

    private final String id;
    private List<String> command = List.of();
    private Path workdir;
    private final Map<String, String> env = new LinkedHashMap<>();
    private URI url;
    private final Map<String, String> headers = new LinkedHashMap<>();

    /** Nothing set yet for module {@code id}. */
    ModuleSourceDraft(String id) {
        this.id = id;
    }

    /** A draft holding {@code source}. */
    ModuleSourceDraft(String id, ModuleSource source) {
        this(id);
        if (source instanceof ModuleSource.Remote remote) {
            url = remote.url();
            headers.putAll(remote.headers());
        } else if (source instanceof ModuleSource.Command spawned) {
            command = spawned.argv();
            workdir = spawned.workdir();
            env.putAll(spawned.env());
        }
    }

    void command(List<String> argv) {
        command = ModuleConfigValidator.command(id, Objects.requireNonNull(argv, "command"));
    }

    void workdir(Path directory) {
        workdir = directory;
    }

    void env(String key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        env.put(key, value);
    }

    void url(URI endpoint) {
        url = ModuleConfigValidator.url(id, Objects.requireNonNull(endpoint, "url"));
    }

    void header(String name, String value) {
        ModuleConfigValidator.header(id, name, value);
        headers.put(name, value);
    }

    /** Whether a url is set: the module is remote. */
    boolean remote() {
        return url != null;
    }

    /**
     * A {@link ModuleSource.Remote} when a url is set, else a {@link ModuleSource.Command}.
     *
     * @throws ConfigException when headers are set without a url, or a url with a command, workdir or environment
     */
    ModuleSource build() {
        ModuleConfigValidator.source(id, command, workdir, env, url, headers);
        return url == null ? new ModuleSource.Command(command, workdir, env) : new ModuleSource.Remote(url, headers);
    }
}
