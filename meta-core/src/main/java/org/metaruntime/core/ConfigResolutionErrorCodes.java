package org.metaruntime.core;

import static java.util.Map.entry;

import java.util.Map;

/**
 * The one table of {@link ConfigResolutionError}'s codes: each record with its {@code CODE}. A new record gets its
 * line here; {@code ErrorsTest} fails for a record without one.
 */
final class ConfigResolutionErrorCodes {

    /** Each record's code, read by {@link ConfigResolutionError#code()}. */
    static final Map<Class<? extends ConfigResolutionError>, String> BY_RECORD = Map.ofEntries(
            entry(ConfigResolutionError.ModuleNotConfigured.class, ConfigResolutionError.ModuleNotConfigured.CODE),
            entry(ConfigResolutionError.ModuleNotDiscovered.class, ConfigResolutionError.ModuleNotDiscovered.CODE));

    private ConfigResolutionErrorCodes() {
    }
}
