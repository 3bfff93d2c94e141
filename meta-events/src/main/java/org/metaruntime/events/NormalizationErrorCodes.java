package org.metaruntime.events;

import static java.util.Map.entry;

import java.util.Map;

/**
 * The one table of {@link NormalizationError}'s codes: each record with its {@code CODE}. A new record gets its line
 * here; {@code NormalizationErrorCodesTest} fails for a record without one.
 */
final class NormalizationErrorCodes {

    /** Each record's code, read by {@link NormalizationError#code()}. */
    static final Map<Class<? extends NormalizationError>, String> BY_RECORD = Map.ofEntries(
            entry(NormalizationError.InvalidJson.class, NormalizationError.InvalidJson.CODE),
            entry(NormalizationError.InvalidSchema.class, NormalizationError.InvalidSchema.CODE),
            entry(NormalizationError.MissingField.class, NormalizationError.MissingField.CODE),
            entry(NormalizationError.InvalidFieldType.class, NormalizationError.InvalidFieldType.CODE),
            entry(NormalizationError.SourceMismatch.class, NormalizationError.SourceMismatch.CODE));

    private NormalizationErrorCodes() {
    }
}
