package org.metaruntime.eventline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;

/** The cancellable one-shot call, its exit grace and its deadline, with real children and a manual scheduler. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EventLineCallTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @RegisterExtension
    final Fixtures fixtures = new Fixtures();
    private final ManualScheduler scheduler = new ManualScheduler();
    private final EventLineRunner runner = EventLineRunner.builder().scheduler(scheduler)
            .ticker(scheduler.clock()::nanoTime).build();

    private static ProcessBoundaryError processError(Throwable thrown) {
        Throwable cause = thrown instanceof CompletionException ? thrown.getCause() : thrown;
        assertThat(cause).isInstanceOf(EventLineException.class);
        EventLineError error = ((EventLineException) cause).error();
        assertThat(error).isInstanceOf(EventLineError.Process.class);
        return ((EventLineError.Process) error).error();
    }

    @Test
    void cancelBeforeTheLineStopsTheTreeAndFailsWithCancelled() {
        EventLineCall call = runner.call(fixtures.moduleWithGrandchild("slow").build(), TIMEOUT, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> fixtures.pids("grandchild").size() == 1);

        call.cancel();
        call.cancel();

        CompletionException thrown = catchThrowableOfType(() -> call.result().join(), CompletionException.class);
        assertThat(processError(thrown)).isEqualTo(new ProcessBoundaryError.Cancelled());
        assertThat(((EventLineException) thrown.getCause()).code()).isEqualTo("process.cancelled");
        assertThat(fixtures.pids("child")).noneMatch(Fixtures::alive);
        awaitGone("grandchild");
    }

    /** A killed orphan may be a zombie for a moment, until init reaps it. */
    private void awaitGone(String kind) {
        await().atMost(Duration.ofSeconds(10)).until(() -> fixtures.pids(kind).stream().noneMatch(Fixtures::alive));
    }

    @Test
    void cancellingTheResultFutureStopsTheTree() {
        EventLineCall call = runner.call(fixtures.moduleWithGrandchild("slow").build(), TIMEOUT, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> fixtures.pids("grandchild").size() == 1);

        call.result().cancel(true);

        assertThat(call.result()).isCancelled();
        await().atMost(Duration.ofSeconds(10)).until(() -> fixtures.pids("child").stream().noneMatch(Fixtures::alive)
                && fixtures.pids("grandchild").stream().noneMatch(Fixtures::alive));
    }

    @Test
    void cancelDuringTheExitGraceStopsTheChildAndFailsWithCancelled() {
        EventLineCall call = runner.call(fixtures.module("stay").build(), TIMEOUT, null);
        awaitExitGrace();

        call.cancel();

        CompletionException thrown = catchThrowableOfType(() -> call.result().join(), CompletionException.class);
        assertThat(processError(thrown)).isEqualTo(new ProcessBoundaryError.Cancelled());
        assertThat(fixtures.pids("child")).noneMatch(Fixtures::alive);
    }

    /** Waits until the line is in: the deadline's timer is cancelled and the exit grace is the only task. */
    private void awaitExitGrace() {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> scheduler.pendingDelays().equals(java.util.List.of(EventLineRunner.DEFAULT_EXIT_GRACE)));
    }

    @Test
    void cancellingACompletedCallDoesNothing() {
        EventLineCall call = runner.call(fixtures.module("ok").build(), TIMEOUT, null);

        EventEnvelope<UnifiedEvent> event = call.result().join();
        call.cancel();

        assertThat(call.result().join()).isSameAs(event);
    }

    @Test
    void aChildThatStaysAliveIsStoppedWhenTheDefaultExitGraceEnds() {
        EventLineCall call = runner.call(fixtures.module("stay").build(), TIMEOUT, null);
        awaitExitGrace();

        scheduler.advance(EventLineRunner.DEFAULT_EXIT_GRACE.minusNanos(1));
        assertThat(call.result()).isNotDone();
        scheduler.advance(Duration.ofNanos(1));

        assertThat(call.result().join().eventId()).isEqualTo(fixtures.eventId());
        assertThat(fixtures.pids("child")).noneMatch(Fixtures::alive);
    }

    @Test
    void theDeadlineFiresOnTheSchedulerAndKillsTheTree() {
        EventLineCall call = runner.call(fixtures.moduleWithGrandchild("slow").build(), Duration.ofSeconds(3), null);
        await().atMost(Duration.ofSeconds(20)).until(() -> fixtures.pids("grandchild").size() == 1);

        scheduler.advance(Duration.ofSeconds(3));

        CompletionException thrown = catchThrowableOfType(() -> call.result().join(), CompletionException.class);
        assertThat(processError(thrown)).isEqualTo(new ProcessBoundaryError.Timeout(3000));
        assertThat(fixtures.pids("child")).noneMatch(Fixtures::alive);
        awaitGone("grandchild");
    }

    @Test
    void aLineThatArrivesAfterTheDeadlineIsATimeout() {
        // The ticker says the deadline (1 ms) passed before the child could answer; the timer never fires.
        long[] calls = {0};
        EventLineRunner late = EventLineRunner.builder().scheduler(scheduler)
                .ticker(() -> calls[0]++ == 0 ? 0L : TimeUnit.MILLISECONDS.toNanos(2)).build();

        EventLineException thrown = catchThrowableOfType(
                () -> late.runOnce(fixtures.module("ok").build(), Duration.ofMillis(1)), EventLineException.class);

        assertThat(processError(thrown)).isEqualTo(new ProcessBoundaryError.Timeout(1));
        assertThat(scheduler.pendingCount()).isZero();
    }

    @Test
    void aSubMillisecondTimeoutNeverReadsZeroMilliseconds() {
        long[] calls = {0};
        EventLineRunner late = EventLineRunner.builder().scheduler(scheduler)
                .ticker(() -> calls[0]++ == 0 ? 0L : TimeUnit.MILLISECONDS.toNanos(1)).build();

        EventLineException thrown = catchThrowableOfType(
                () -> late.runOnce(fixtures.module("ok").build(), Duration.ofNanos(500_000)),
                EventLineException.class);

        assertThat(processError(thrown)).isEqualTo(new ProcessBoundaryError.Timeout(0));
        assertThat(thrown.getMessage()).contains("under 1 ms").doesNotContain("within 0 ms");
    }

    @Test
    void aHugeTimeoutIsClampedInsteadOfOverflowing() {
        EventEnvelope<UnifiedEvent> event = EventLineRunner.create()
                .runOnce(fixtures.module("ok").build(), Duration.ofDays(365_000));

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
    }
}
