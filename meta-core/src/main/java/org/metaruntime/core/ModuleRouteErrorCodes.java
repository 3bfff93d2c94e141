package org.metaruntime.core;

import static java.util.Map.entry;

import java.util.Map;

/**
 * The one table of {@link ModuleRouteError}'s codes: each record with its {@code CODE} ({@link
 * ModuleRouteError.ModuleRuntime} is not here: it reports the code of the error it wraps). A new record gets its
 * line here; {@code ErrorsTest} fails for a record without one.
 */
final class ModuleRouteErrorCodes {

    /** Each record's code, read by {@link ModuleRouteError#code()}. */
    static final Map<Class<? extends ModuleRouteError>, String> BY_RECORD = Map.ofEntries(
            entry(ModuleRouteError.UnloadedModule.class, ModuleRouteError.UnloadedModule.CODE),
            entry(ModuleRouteError.UnexpectedRouteResponse.class, ModuleRouteError.UnexpectedRouteResponse.CODE),
            entry(ModuleRouteError.ModuleUnavailable.class, ModuleRouteError.ModuleUnavailable.CODE));

    private ModuleRouteErrorCodes() {
    }
}
