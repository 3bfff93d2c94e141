package org.metaruntime.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ErrorCodeTable;

class NormalizationErrorCodesTest {

    @Test
    void everyRecordHasItsOwnCode() {
        ErrorCodeTable.assertWhole(NormalizationError.class, NormalizationErrorCodes.BY_RECORD);
    }

    @Test
    void eachRecordAnswersItsCode() {
        List<NormalizationError> errors = List.of(new NormalizationError.InvalidJson(),
                new NormalizationError.InvalidSchema(), new NormalizationError.MissingField("source"),
                new NormalizationError.InvalidFieldType("timestamp_ms"),
                new NormalizationError.SourceMismatch("module", "agent"));
        assertThat(errors).extracting(NormalizationError::code).containsExactly("normalize.invalid_json",
                "normalize.invalid_schema", "normalize.missing_field", "normalize.invalid_field_type",
                "normalize.source_mismatch");
    }
}
