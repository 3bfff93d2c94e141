package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ModuleExceptionTest {

    @Test
    void theFormatterAddsExitCodeAndStderrOnOneLine() {
        assertThat(ModuleException.formatMessage("module 'm'", "it broke", OptionalInt.of(3), "boom\n  at x\n"))
                .isEqualTo("module 'm': it broke (exit code 3, stderr: boom | at x)");
        assertThat(ModuleException.formatMessage("call to module 'm' failed", "it broke", OptionalInt.empty(), " "))
                .isEqualTo("call to module 'm' failed: it broke");
        assertThat(ModuleException.formatMessage("module 'm'", "it broke", OptionalInt.empty(), "why"))
                .isEqualTo("module 'm': it broke (stderr: why)");
    }

    @Test
    void theFormatterDoesNotRepeatWhatTheCauseAlreadySays() {
        ProcessBoundaryError.Exited exited = new ProcessBoundaryError.Exited(2, "usage: tool");
        assertThat(ModuleException.formatMessage("module 'm'", exited.message(), OptionalInt.of(2), "usage: tool"))
                .isEqualTo("module 'm': the process exited with code 2 (stderr: usage: tool)");
    }

    @Test
    void aLongStderrTailIsCutToItsEnd() {
        String message = ModuleException.formatMessage("module 'm'", "it broke", OptionalInt.empty(),
                "x".repeat(10_000) + "the last words");
        assertThat(message).endsWith("the last words)").hasSizeLessThan(ModuleException.MESSAGE_TAIL_CHARS + 60);
    }

    @Test
    void aProcessBoundaryExceptionCarriesTheExitOfAnExitedProcess() {
        ProcessBoundaryException e = new ProcessBoundaryException("m", new ProcessBoundaryError.Exited(3, "boom\n"));
        assertThat(e).isInstanceOf(ModuleException.class);
        assertThat(e.moduleId()).isEqualTo("m");
        assertThat(e.exitCode()).hasValue(3);
        assertThat(e.stderrTail()).isEqualTo("boom\n");
        assertThat(e.code()).isEqualTo(ProcessBoundaryError.Exited.CODE).isEqualTo("process.exited");
        assertThat(e.getMessage()).isEqualTo("module 'm': the process exited with code 3 (stderr: boom)");

        ProcessBoundaryException timeout = new ProcessBoundaryException("m", new ProcessBoundaryError.Timeout(250));
        assertThat(timeout.exitCode()).isEmpty();
        assertThat(timeout.stderrTail()).isEmpty();
        assertThat(timeout.code()).isEqualTo("process.timeout");
    }

    @Test
    void everyProcessErrorHasItsOwnStableCode() {
        List<ProcessBoundaryError> errors = List.of(new ProcessBoundaryError.SpawnFailed("no such file"),
                new ProcessBoundaryError.Io("broken pipe"), new ProcessBoundaryError.Timeout(1),
                new ProcessBoundaryError.EmptyOutput(), new ProcessBoundaryError.LineTooLong(16),
                new ProcessBoundaryError.Exited(1, ""), new ProcessBoundaryError.Cancelled());
        assertThat(errors).extracting(ProcessBoundaryError::code).containsExactly("process.spawn_failed",
                "process.io", "process.timeout", "process.empty_output", "process.line_too_long", "process.exited",
                "process.cancelled");
        Set<Class<?>> permitted = Set.of(ProcessBoundaryError.class.getPermittedSubclasses());
        assertThat(errors.stream().map(Object::getClass).collect(Collectors.toSet())).isEqualTo(permitted);
    }

    @Test
    void cancelledReadsAsASentence() {
        ProcessBoundaryException e = new ProcessBoundaryException("m", new ProcessBoundaryError.Cancelled());
        assertThat(e.getMessage()).isEqualTo("module 'm': the call was cancelled and the process was stopped");
        assertThat(new ProcessBoundaryError.Cancelled()).isEqualTo(new ProcessBoundaryError.Cancelled());
    }
}
