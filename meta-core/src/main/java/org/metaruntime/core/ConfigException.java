package org.metaruntime.core;

import java.util.Optional;
import org.metaruntime.supervisor.InvalidOptionException;

/**
 * An invalid configuration ({@link MetaConfig}, {@link ModuleConfig}, {@link RuntimeOptions}), refused before
 * anything is started. {@link #field()} names the offending field, e.g. {@code modules[1].id},
 * {@code discovery.modules[0]}, {@code preSpawn[2].moduleId} or {@code restartBackoff}.
 *
 * <p>When the problem is a discovered module id that is not configured, {@link #resolutionError()} carries
 * {@link ConfigResolutionError.ModuleNotConfigured}.
 *
 * <p>It is the {@link InvalidOptionException} of meta-core's configuration: a host may catch that one type for any
 * option refused by any layer's builder, and read the same {@link #field()} path.
 *
 * <p>Immutable and thread-safe.
 */
public class ConfigException extends InvalidOptionException {

    private final transient ConfigResolutionError resolutionError;

    /** A problem with {@code field}; {@code message} is one sentence describing it. */
    public ConfigException(String field, String message) {
        this(field, message, null);
    }

    /** A problem with {@code field} that is also a resolution error (may be {@code null}). */
    public ConfigException(String field, String message, ConfigResolutionError resolutionError) {
        super(field, message);
        this.resolutionError = resolutionError;
    }

    /** The path of the offending field, e.g. {@code modules[1].command}. */
    @Override
    public String field() {
        return super.field();
    }

    /** The resolution error behind this problem, if it is one. */
    public Optional<ConfigResolutionError> resolutionError() {
        return Optional.ofNullable(resolutionError);
    }
}
