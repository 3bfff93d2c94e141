package org.metaruntime.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.supervisor.Scheduler;

/** A window's deadlines: one timer task for all its requests, answered requests cost the timer nothing. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeadlinesTest {

    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private final List<String> written = new ArrayList<>();
    private final CallWindow window = new CallWindow("m", 1000, 1000, on(timer), new CallWindow.Wire() {
        @Override
        public synchronized long write(String json) {
            written.add(json);
            return 0;
        }

        @Override
        public boolean alive() {
            return true;
        }
    });

    private static Scheduler on(ScheduledThreadPoolExecutor timer) {
        return (task, delay) -> {
            Future<?> scheduled = timer.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
            return () -> scheduled.cancel(false);
        };
    }

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private Request call(Duration timeout) {
        Request r = window.create(Request.Kind.CALL, "tools/call", "call", "echo", Json.MAPPER.createObjectNode(),
                timeout.toMillis(), window.now() + timeout.toNanos(), null);
        window.submit(r);
        return r;
    }

    private void answer(Request r) {
        window.onResponse(new JSONRPCResponse("2.0", r.requestId(), Json.MAPPER.createObjectNode(), null));
    }

    @Test
    void requestsAnsweredInTimeScheduleOneTaskBetweenThem() {
        for (int i = 0; i < 1000; i++) {
            Request r = call(Duration.ofSeconds(60));
            answer(r);
            assertThat(r.future()).isCompleted();
        }
        assertThat(timer.getQueue()).hasSize(1);
        assertThat(timer.getCompletedTaskCount()).isZero();
    }

    @Test
    void aWindowThatEndsLeavesNoTaskOnTheTimer() {
        Request r = call(Duration.ofSeconds(60));
        assertThat(timer.getQueue()).hasSize(1);

        window.terminate(Termination.of("closed"));

        assertThat(r.future()).isCompletedExceptionally();
        assertThat(timer.getQueue()).as("the deadline task is cancelled with the window")
                .allSatisfy(task -> assertThat(((Future<?>) task).isCancelled()).isTrue());
    }

    @Test
    void aRequestMadeAfterTheWindowEndedFailsWithWhyItEndedNotATimeout() {
        window.terminate(Termination.of("module 'm' exited with code 9"));

        Request late = call(Duration.ofSeconds(60));

        assertThat(late.future()).isCompletedExceptionally();
        assertThatThrownBy(() -> late.future().join()).hasMessageContaining("exited with code 9")
                .hasMessageNotContaining("did not complete");
    }

    @Test
    void aShorterDeadlineArmsTheTaskEarlierAndTheLongerOneStaysWatched() {
        Request slow = call(Duration.ofSeconds(60));
        Request fast = call(Duration.ofMillis(50));
        await().until(() -> fast.future().isDone());
        assertTimedOut(fast);
        assertThat(slow.future()).isNotDone();
        answer(slow);
        assertThat(slow.future()).isCompleted();
        assertThat(written).anySatisfy(line -> assertThat(line).contains("notifications/cancelled")
                .contains(fast.requestId()));
    }

    @Test
    void everyRequestExpiresOnceItsDeadlinePasses() {
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            requests.add(call(Duration.ofMillis(20 + 10 * (i % 5))));
        }
        Request answered = call(Duration.ofMillis(20));
        answer(answered);
        await().until(() -> requests.stream().allMatch(r -> r.future().isDone()));
        requests.forEach(DeadlinesTest::assertTimedOut);
        assertThat(answered.future()).isCompleted();
        await().until(() -> timer.getQueue().isEmpty());
    }

    @Test
    void aRequestGivenMoreTimeByProgressExpiresAtItsNewDeadline() {
        Request r = call(Duration.ofMillis(30));
        r.arm(TimeUnit.SECONDS.toNanos(60)); // as a progress update does with resetTimeoutOnProgress
        Request marker = call(Duration.ofMillis(60));
        await().until(() -> marker.future().isDone());
        assertThat(r.future()).as("its first deadline passed long ago").isNotDone();
        answer(r);
        assertThat(r.future()).isCompleted();
    }

    private static void assertTimedOut(Request r) {
        assertThat(r.future()).isCompletedExceptionally();
        Throwable failure = r.future().handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
        assertThat(failure).isInstanceOfSatisfying(McpBoundaryException.class,
                e -> assertThat(e.error()).isInstanceOf(McpBoundaryError.Timeout.class));
    }
}
