package org.metaruntime.supervisor.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AttemptResultTest {

    @AfterEach
    void clearTheInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aChildIsASuccessAndTheAttemptNumberIsPassedOn() {
        AttemptResult<String> result = AttemptResult.run(n -> "child-" + n, 3);

        assertThat(result.succeeded()).isTrue();
        assertThat(result.child()).isEqualTo("child-3");
        assertThat(result.failure()).isNull();
    }

    @Test
    void anExceptionIsTheFailure() {
        IOException failure = new IOException("no such program");

        AttemptResult<String> result = AttemptResult.run(n -> {
            throw failure;
        }, 1);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.failure()).isSameAs(failure);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void noChildIsAFailure() {
        AttemptResult<String> result = AttemptResult.run(n -> null, 1);

        assertThat(result.failure()).isInstanceOf(IllegalStateException.class)
                .hasMessage("the start attempt returned no child");
    }

    @Test
    void anInterruptIsAFailureThatKeepsTheInterruptFlag() {
        AttemptResult<String> result = AttemptResult.run(n -> {
            throw new InterruptedException("stop");
        }, 1);

        assertThat(result.failure()).isInstanceOf(InterruptedException.class);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void aResultHasEitherAChildOrAFailure() {
        assertThatThrownBy(() -> new AttemptResult<>(null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AttemptResult<>("child", new IOException()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
