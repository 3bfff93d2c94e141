package org.metaruntime.events;

import java.util.Objects;

/**
 * Why a line could not be normalised into an envelope. A value: match on the record.
 *
 * <pre>{@code
 * try {
 *     EventNormalizer.normalize(line);
 * } catch (NormalizationException e) {
 *     if (e.error() instanceof NormalizationError.MissingField m) {
 *         report("missing " + m.field());
 *     }
 * }
 * }</pre>
 */
public sealed interface NormalizationError {

    /** One readable sentence describing the error. */
    String message();

    /**
     * The error's stable code: the record's {@code CODE} constant, which {@code NormalizationErrorCodes}, the one
     * table of this interface's codes, pairs with the record.
     */
    default String code() {
        return NormalizationErrorCodes.BY_RECORD.get(getClass());
    }

    /** The line is not JSON. */
    record InvalidJson() implements NormalizationError {
        /** This error's {@link #code()}. */
        public static final String CODE = "normalize.invalid_json";

        @Override
        public String message() {
            return "the line is not valid JSON";
        }
    }

    /** The line is JSON but not an object. */
    record InvalidSchema() implements NormalizationError {
        /** This error's {@link #code()}. */
        public static final String CODE = "normalize.invalid_schema";

        @Override
        public String message() {
            return "the line is JSON but not an event object";
        }
    }

    /** A required field is absent. */
    record MissingField(String field) implements NormalizationError {
        /** This error's {@link #code()}. */
        public static final String CODE = "normalize.missing_field";

        /** Validates the record. */
        public MissingField {
            Objects.requireNonNull(field, "field");
        }

        @Override
        public String message() {
            return "the event has no field '" + field + "'";
        }
    }

    /** A field has the wrong JSON type (or is out of range, or is JSON null where a value is required). */
    record InvalidFieldType(String field) implements NormalizationError {
        /** This error's {@link #code()}. */
        public static final String CODE = "normalize.invalid_field_type";

        /** Validates the record. */
        public InvalidFieldType {
            Objects.requireNonNull(field, "field");
        }

        @Override
        public String message() {
            return "the event field '" + field + "' has the wrong type";
        }
    }

    /** The envelope source does not agree with the event variant. */
    record SourceMismatch(String expected, String got) implements NormalizationError {
        /** This error's {@link #code()}. */
        public static final String CODE = "normalize.source_mismatch";

        /** Validates the record. */
        public SourceMismatch {
            Objects.requireNonNull(expected, "expected");
            Objects.requireNonNull(got, "got");
        }

        @Override
        public String message() {
            return "the event source must be '" + expected + "' but is '" + got + "'";
        }
    }
}
