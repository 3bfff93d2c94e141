package org.metaruntime.testing;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ErrorCodeTableTest {

    sealed interface Sample {
        default String code() {
            return TABLE.get(getClass());
        }

        record Broken() implements Sample {
            public static final String CODE = "sample.broken";
        }

        record Lost() implements Sample {
            public static final String CODE = "sample.lost";
        }

        record Wrapped(Sample error) implements Sample {
            @Override
            public String code() {
                return error.code();
            }
        }
    }

    static final Map<Class<? extends Sample>, String> TABLE = Map.of(Sample.Broken.class, Sample.Broken.CODE,
            Sample.Lost.class, Sample.Lost.CODE);

    @Test
    void aWholeTablePasses() {
        assertThatCode(() -> ErrorCodeTable.assertWhole(Sample.class, TABLE)).doesNotThrowAnyException();
    }

    @Test
    void aRecordWithoutALineFails() {
        assertThatThrownBy(() -> ErrorCodeTable.assertWhole(Sample.class, Map.of(Sample.Broken.class, "sample.broken")))
                .hasMessageContaining("Lost is not in the table");
    }

    @Test
    void aLineForAWrapperFails() {
        assertThatThrownBy(() -> ErrorCodeTable.assertWhole(Sample.class, Map.of(Sample.Broken.class, "sample.broken",
                Sample.Lost.class, "sample.lost", Sample.Wrapped.class, "sample.wrapped")))
                .hasMessageContaining("Wrapped is in the table but has a code() of its own");
    }

    @Test
    void aSharedOrMispairedOrUnstableCodeFails() {
        assertThatThrownBy(() -> ErrorCodeTable.assertWhole(Sample.class, Map.of(Sample.Broken.class, "sample.lost",
                Sample.Lost.class, "sample.lost"))).hasMessageContaining("is another record's code too")
                .hasMessageContaining("Broken is paired with 'sample.lost' but its CODE is 'sample.broken'");
        assertThatThrownBy(() -> ErrorCodeTable.assertWhole(Sample.class, Map.of(Sample.Broken.class, "Broken",
                Sample.Lost.class, "sample.lost"))).hasMessageContaining("is not a stable dotted lower-case name");
    }
}
