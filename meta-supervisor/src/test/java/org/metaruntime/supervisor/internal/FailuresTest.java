package org.metaruntime.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class FailuresTest {

    @Test
    void unwrapsEveryFutureWrapperToTheCause() {
        IllegalStateException cause = new IllegalStateException("boom");
        assertThat(Failures.unwrap(cause)).isSameAs(cause);
        assertThat(Failures.unwrap(new CompletionException(cause))).isSameAs(cause);
        assertThat(Failures.unwrap(new ExecutionException(cause))).isSameAs(cause);
        assertThat(Failures.unwrap(new ExecutionException(new CompletionException(cause)))).isSameAs(cause);
        CompletableFuture<Object> failed = CompletableFuture.failedFuture(cause);
        Throwable seen = failed.thenApply(v -> v).handle((v, e) -> e).join();
        assertThat(seen).isInstanceOf(CompletionException.class);
        assertThat(Failures.unwrap(seen)).isSameAs(cause);
    }

    @Test
    void keepsAWrapperWithoutACauseAndNull() {
        CompletionException bare = new CompletionException("no cause", null);
        assertThat(Failures.unwrap(bare)).isSameAs(bare);
        assertThat(Failures.unwrap(null)).isNull();
    }

    @Test
    void aMethodThatThrowsFailsThroughItsFutureInstead() {
        IllegalStateException cause = new IllegalStateException("boom");
        CompletableFuture<String> sent = CompletableFuture.completedFuture("sent");
        assertThat(Failures.attempt(() -> sent)).isSameAs(sent);
        assertThat(Failures.<String>attempt(() -> {
            throw cause;
        }).handle((v, e) -> e).join()).isSameAs(cause);
        assertThat(Failures.answered(() -> "value").join()).isEqualTo("value");
        assertThat(Failures.<String>answered(() -> {
            throw cause;
        }).handle((v, e) -> e).join()).isSameAs(cause);
    }
}
