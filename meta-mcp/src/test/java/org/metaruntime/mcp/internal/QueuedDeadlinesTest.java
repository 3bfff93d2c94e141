package org.metaruntime.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;

/**
 * The deadline of a queued call is read when it would take a freed slot, on the window's clock: a call that fell
 * due together with the call ahead of it, or that nobody expired yet, times out unsent. Driven by a manual clock and
 * scheduler, so the order in which the timer handles deadlines is the test's choice.
 */
class QueuedDeadlinesTest {

    private final ManualScheduler scheduler = new ManualScheduler();
    private final RecordingWire wire = new RecordingWire();

    private CallWindow window(int maxInFlight) {
        return new CallWindow("m", maxInFlight, 1000, scheduler, wire);
    }

    private static Request call(CallWindow window, int n, Duration timeout, boolean timed) {
        Request r = window.create(Request.Kind.CALL, "tools/call", "call_tool:slow", "slow",
                Json.MAPPER.createObjectNode().put("name", "slow").put("n", n), timeout.toMillis(),
                window.now() + timeout.toNanos(), null, timed);
        window.submit(r);
        return r;
    }

    private List<JsonNode> sent(String method) {
        return wire.method(method);
    }

    @Test
    void callsThatFallDueWithTheCallInFlightAreNeverSent() {
        CallWindow window = window(1);
        List<Request> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(call(window, i, Duration.ofMillis(300), true));
        }
        assertThat(sent("tools/call")).hasSize(1);

        scheduler.advance(Duration.ofMillis(300)); // all five fall due at once; the one in flight expires first

        calls.forEach(QueuedDeadlinesTest::assertTimedOut);
        assertThat(sent("tools/call")).hasSize(1);
        assertThat(sent("notifications/cancelled")).hasSize(1);
        assertThat(window.callsInFlight()).isZero();
    }

    @Test
    void withFourInFlightOnlyTheFirstFourOfAHundredAreSent() {
        CallWindow window = window(4);
        List<Request> calls = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            calls.add(call(window, i, Duration.ofMillis(300), true));
        }
        scheduler.advance(Duration.ofMillis(300));

        calls.forEach(QueuedDeadlinesTest::assertTimedOut);
        assertThat(sent("tools/call")).extracting(m -> m.at("/params/n").asInt()).containsExactly(0, 1, 2, 3);
        assertThat(window.callsInFlight()).isZero();
    }

    @Test
    void aQueuedCallWhoseDeadlinePassedUnseenTimesOutWhenItsSlotFrees() {
        CallWindow window = window(1);
        Request first = call(window, 0, Duration.ofSeconds(60), true);
        Request waiting = call(window, 1, Duration.ofMillis(300), false); // its caller expires it: no timer
        Request later = call(window, 2, Duration.ofSeconds(60), true);

        scheduler.advance(Duration.ofMillis(500));
        assertThat(waiting.isFinished()).as("nobody expired it yet").isFalse();
        window.onResponse(new JSONRPCResponse("2.0", first.requestId(), Json.MAPPER.createObjectNode(), null));

        assertThat(first.future()).isCompleted();
        assertTimedOut(waiting);
        assertThat(waiting.requestId()).isNull();
        assertThat(sent("tools/call")).extracting(m -> m.at("/params/n").asInt()).containsExactly(0, 2);
        assertThat(later.isFinished()).isFalse();
    }

    @Test
    void aCallSubmittedAfterItsDeadlineIsNeverSent() {
        CallWindow window = window(1);
        Request r = window.create(Request.Kind.CALL, "tools/call", "call_tool:slow", "slow",
                Json.MAPPER.createObjectNode(), 300, window.now() + Duration.ofMillis(300).toNanos(), null, false);
        scheduler.advance(Duration.ofMillis(300));
        window.submit(r);
        assertTimedOut(r);
        assertThat(wire.written()).isEmpty();
        assertThat(window.callsInFlight()).isZero();
    }

    @Test
    void aCallAheadAnsweredBeforeTheQueuedDeadlineSendsTheQueuedCall() {
        CallWindow window = window(1);
        Request first = call(window, 0, Duration.ofSeconds(60), true);
        Request queued = call(window, 1, Duration.ofMillis(300), true);
        scheduler.advance(Duration.ofMillis(299));
        window.onResponse(new JSONRPCResponse("2.0", first.requestId(), Json.MAPPER.createObjectNode(), null));
        assertThat(queued.requestId()).isNotNull();
        assertThat(sent("tools/call")).hasSize(2);
    }

    private static void assertTimedOut(Request r) {
        assertThat(r.future()).isCompletedExceptionally();
        Throwable failure = r.future().handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
        assertThat(failure).isInstanceOfSatisfying(McpBoundaryException.class,
                e -> assertThat(e.error()).isInstanceOf(McpBoundaryError.Timeout.class));
    }
}
