package org.metaruntime.eventline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.supervisor.ProcessBoundaryError;

class EventLineExceptionTest {

    private static final EventLineError EMPTY = new EventLineError.Process(new ProcessBoundaryError.EmptyOutput());

    @Test
    void messageNamesModuleCauseExitCodeAndStderr() {
        EventLineException e = new EventLineException("weather", EMPTY, OptionalInt.of(3), "boom\nfailed\n", null);

        assertThat(e.getMessage()).isEqualTo("module 'weather': the process exited without writing a line to stdout"
                + " (exit code 3, stderr: boom | failed)");
        assertThat(e.moduleId()).isEqualTo("weather");
        assertThat(e.error()).isEqualTo(EMPTY);
        assertThat(e.exitCode()).hasValue(3);
        assertThat(e.stderrTail()).isEqualTo("boom\nfailed\n");
    }

    @Test
    void messageWithoutExitCodeOrStderr() {
        EventLineError error = new EventLineError.Normalize(new NormalizationError.MissingField("event_id"));

        EventLineException e = new EventLineException("m", error, OptionalInt.empty(), "  ", null);

        assertThat(e.getMessage()).startsWith("module 'm': the first stdout line is not a valid event")
                .contains("event_id").doesNotContain("exit code").doesNotContain("stderr");
    }

    @Test
    void longStderrIsCutToItsEndInTheMessage() {
        String tail = "x".repeat(10_000) + "the last words";

        EventLineException e = new EventLineException("m", EMPTY, OptionalInt.empty(), tail, null);

        assertThat(e.getMessage()).endsWith("the last words)").hasSizeLessThan(700);
        assertThat(e.stderrTail()).isEqualTo(tail);
    }

    @Test
    void rejectsNulls() {
        assertThatThrownBy(() -> new EventLineException(null, EMPTY, OptionalInt.empty(), "", null))
                .isInstanceOf(NullPointerException.class).hasMessage("moduleId");
        assertThatThrownBy(() -> new EventLineException("m", null, OptionalInt.empty(), "", null))
                .isInstanceOf(NullPointerException.class).hasMessage("error");
        assertThatThrownBy(() -> new EventLineError.Process(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new EventLineError.Normalize(null)).isInstanceOf(NullPointerException.class);
    }
}
