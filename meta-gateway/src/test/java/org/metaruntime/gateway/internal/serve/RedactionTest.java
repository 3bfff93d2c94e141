package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void everyOccurrenceOfAValueOfAtLeastFourCharactersIsHidden() {
        Redaction redaction = Redaction.of(List.of("s3cr3t-token", "s3cr3t", "abc", ""));
        assertThat(redaction.apply("token s3cr3t-token, again s3cr3t and abc"))
                .isEqualTo("token [redacted], again [redacted] and abc");
        assertThat(redaction.apply((String) null)).isNull();
        assertThat(Redaction.NONE.apply("s3cr3t")).isEqualTo("s3cr3t");
    }

    @Test
    void aFailureAndAStateAreRedactedInMessageAndStderrTail() {
        Redaction redaction = Redaction.of(List.of("hunter22"));
        PodBackend.PodFailure failure = new PodBackend.PodFailure(PodBackend.PodFailure.Kind.UNAVAILABLE,
                "exited: hunter22", OptionalInt.of(3), "line with hunter22\n");
        PodBackend.PodFailure redacted = redaction.apply(failure);
        assertThat(redacted.getMessage()).isEqualTo("exited: [redacted]");
        assertThat(redacted.stderrTail()).isEqualTo("line with [redacted]\n");
        assertThat(redacted.kind()).isEqualTo(failure.kind());
        assertThat(redacted.exitCode()).isEqualTo(OptionalInt.of(3));
        PodBackend.PodState state = redaction.apply(new PodBackend.PodState("Failed", OptionalLong.empty(), 1, "hunter22!", "hunter22"));
        assertThat(state.lastError()).isEqualTo("[redacted]!");
        assertThat(state.stderrTail()).isEqualTo("[redacted]");
    }
}
