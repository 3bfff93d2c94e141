package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.InFlight;

/** The gateway's one handle whose call comes later: results, cancels before and after the call, and when it has finished. */
class DeferredCallTest {

    /** A pod call that counts its cancels and finishes when told. */
    private static final class PodCall implements InFlight<JsonNode> {
        final CompletableFuture<JsonNode> result = new CompletableFuture<>();
        final CompletableFuture<Void> finished = new CompletableFuture<>();
        final AtomicInteger cancels = new AtomicInteger();

        @Override
        public CompletableFuture<JsonNode> result() {
            return result;
        }

        @Override
        public void cancel() {
            cancels.incrementAndGet();
        }

        @Override
        public CompletableFuture<Void> finished() {
            return finished;
        }
    }

    @Test
    void itsResultIsTheStartedCallsAndItFinishesWithIt() {
        DeferredCall deferred = new DeferredCall();
        CompletableFuture<Void> finished = deferred.finished();
        PodCall pod = new PodCall();

        deferred.start(() -> pod);
        pod.result.complete(TextNode.valueOf("done"));

        assertThat(deferred.result()).isCompletedWithValue(TextNode.valueOf("done"));
        assertThat(finished).isNotDone();
        pod.finished.complete(null);
        assertThat(finished).isDone();
        assertThat(deferred.finished()).isSameAs(pod.finished);
    }

    @Test
    void aCancelReachesTheAttachedCall() {
        DeferredCall deferred = new DeferredCall();
        PodCall pod = new PodCall();
        deferred.attach(pod);

        deferred.cancel();
        deferred.cancel();

        assertThat(pod.cancels).hasValue(2);
        assertThat(deferred.result()).isNotDone();
        pod.result.completeExceptionally(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.CANCELLED, "cancelled",
                java.util.OptionalInt.empty(), ""));
        assertThat(ToolCalls.cancelled(deferred.result().handle((r, e) -> e).join())).isTrue();
    }

    @Test
    void cancelledBeforeItStartsItNeverStarts() {
        DeferredCall deferred = new DeferredCall();
        CompletableFuture<Void> finished = deferred.finished();
        AtomicInteger starts = new AtomicInteger();

        deferred.cancel();

        assertThat(ToolCalls.cancelled(deferred.result().handle((r, e) -> e).join())).isTrue();
        deferred.start(() -> {
            starts.incrementAndGet();
            return new PodCall();
        });
        assertThat(starts).hasValue(0);
        assertThat(finished).isDone();
        assertThat(deferred.finished()).isDone();
    }

    @Test
    void cancelledBeforeItIsAttachedTheCallIsCancelledAsItComes() {
        DeferredCall deferred = new DeferredCall();
        PodCall pod = new PodCall();

        deferred.cancel();
        deferred.attach(pod);

        assertThat(pod.cancels).hasValue(1);
        assertThat(ToolCalls.cancelled(deferred.result().handle((r, e) -> e).join())).isTrue();
        assertThatThrownBy(() -> deferred.attach(new PodCall())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aStarterThatThrowsFailsTheCall() {
        DeferredCall deferred = new DeferredCall();

        deferred.start(() -> {
            throw new IllegalStateException("no backend");
        });

        assertThatThrownBy(() -> deferred.result().join()).isInstanceOf(CompletionException.class)
                .hasRootCauseMessage("no backend");
        assertThat(deferred.finished()).isDone();
    }
}
