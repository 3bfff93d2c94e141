package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.internal.SharedTimer;

/**
 * Calls as handles against the python fixture, which records every line it reads on stdin: cancel in flight and
 * queued, future cancellation, expired queued calls, interrupted callers, and cancel in PER_CALL mode.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CallHandleTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(20);
    private static final Duration LONG = Duration.ofMinutes(5);
    private static final String CANCELLED = "notifications/cancelled";

    @TempDir
    Path dir;

    @RegisterExtension
    final OpenConnections opened = new OpenConnections();

    private Path record() {
        return dir.resolve("stdin.jsonl");
    }

    private McpConnection open(McpClientOptions options) {
        McpConnection c = McpProbe.probe(Peers.python("py", dir.resolve("pid"), "--record", record().toString()),
                options, T).connection();
        opened.add(c);
        return c;
    }

    /** Every message the fixture read on its stdin so far. */
    private List<JsonNode> received() {
        try {
            List<JsonNode> messages = new ArrayList<>();
            if (Files.exists(record())) {
                for (String line : Files.readAllLines(record())) {
                    messages.add(JSON.readTree(line));
                }
            }
            return messages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<JsonNode> received(String method) {
        return received().stream().filter(m -> method.equals(m.path("method").asText())).toList();
    }

    /** Waits until the fixture read a tools/call of {@code tool}; returns its JSON-RPC id. */
    private String sentId(String tool) {
        AtomicReference<String> id = new AtomicReference<>();
        await().atMost(T).until(() -> {
            for (JsonNode m : received("tools/call")) {
                if (tool.equals(m.at("/params/name").asText())) {
                    id.set(m.get("id").asText());
                    return true;
                }
            }
            return false;
        });
        return id.get();
    }

    private static ObjectNode args(String key, Object value) {
        return JSON.createObjectNode().set(key, JSON.valueToTree(value));
    }

    private static McpBoundaryError errorOf(CompletableFuture<?> future) {
        CompletionException e = catchThrowableOfType(CompletionException.class, future::join);
        assertThat(e).as("the future failed").isNotNull();
        assertThat(e.getCause()).isInstanceOf(McpBoundaryException.class);
        return ((McpBoundaryException) e.getCause()).error();
    }

    @Test
    void cancelInFlightSendsCancelledWithTheRequestIdFreesTheSlotAndDropsTheLateAnswer() {
        McpConnection c = open(McpClientOptions.builder().maxInFlight(1).build());
        McpToolCall call = c.startCall("slow", args("ms", 300).put("answer_even_if_cancelled", true),
                McpCallOptions.of(LONG));
        String id = sentId("slow");
        call.cancel();
        call.cancel(); // idempotent
        assertThat(errorOf(call.result())).isEqualTo(new McpBoundaryError.Cancelled("py", "slow"));
        assertThat(errorOf(call.payload())).isEqualTo(new McpBoundaryError.Cancelled("py", "slow"));
        assertThat(c.inFlight()).isZero();
        // the only slot is free at once: this call is sent before the cancelled one's late answer arrives
        assertThat(c.callTool("echo", args("text", "next"), T)).isEqualTo(TextNode.valueOf("next"));

        await().atMost(T).until(() -> !received(CANCELLED).isEmpty());
        JsonNode cancelled = received(CANCELLED).get(0);
        assertThat(cancelled.at("/params/requestId").asText()).isEqualTo(id);
        assertThat(cancelled.at("/params/reason").asText()).isNotBlank();
        await().atMost(T).until(() -> c.droppedAnswers() == 1);
        assertThat(c.callTool("echo", args("text", "after"), T)).isEqualTo(TextNode.valueOf("after"));
    }

    @Test
    void cancellingAFutureCancelsTheCall() {
        McpConnection c = open(McpClientOptions.defaults());
        McpToolCall call = c.startCall("hang", null, McpCallOptions.of(LONG));
        String id = sentId("hang");
        assertThat(call.payload().cancel(true)).isTrue();
        assertThat(call.payload()).isCancelled();
        assertThat(catchThrowableOfType(CancellationException.class, call.payload()::join)).isNotNull();
        assertThat(errorOf(call.result())).isEqualTo(new McpBoundaryError.Cancelled("py", "hang"));
        await().atMost(T).until(() -> received(CANCELLED).stream()
                .anyMatch(m -> id.equals(m.at("/params/requestId").asText())));
        assertThat(c.inFlight()).isZero();
    }

    @Test
    void cancellingACompletedCallDoesNothing() {
        McpConnection c = open(McpClientOptions.defaults());
        McpToolCall call = c.startCall("echo", args("text", "done"), McpCallOptions.of(T));
        assertThat(call.payload().join()).isEqualTo(TextNode.valueOf("done"));
        call.cancel();
        assertThat(call.result().join().isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(received(CANCELLED)).isEmpty();
    }

    @Test
    void aCancelledQueuedCallIsNeverSent() {
        McpConnection c = open(McpClientOptions.builder().maxInFlight(1).build());
        McpToolCall hanging = c.startCall("hang", null, McpCallOptions.of(LONG));
        sentId("hang");
        McpToolCall queued = c.startCall("echo", args("text", "never"), McpCallOptions.of(LONG));
        queued.cancel();
        assertThat(errorOf(queued.payload())).isEqualTo(new McpBoundaryError.Cancelled("py", "echo"));
        hanging.cancel();
        assertThat(c.callTool("echo", args("text", "final"), T)).isEqualTo(TextNode.valueOf("final"));
        List<String> texts = received("tools/call").stream().map(m -> m.at("/params/arguments/text").asText()).toList();
        assertThat(texts).doesNotContain("never").contains("final");
        // only the hanging call was on the wire: only it is cancelled there
        assertThat(received(CANCELLED)).hasSize(1);
    }

    @Test
    void queuedCallsWhoseDeadlinePassedAreNeverSent() {
        McpConnection c = open(McpClientOptions.builder().maxInFlight(4).build());
        List<McpToolCall> hanging = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            hanging.add(c.startCall("hang", null, McpCallOptions.of(LONG)));
        }
        await().atMost(T).until(() -> received("tools/call").size() == 4);
        List<CompletableFuture<JsonNode>> expiring = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            expiring.add(c.callToolAsync("echo", args("text", "late-" + i), Duration.ofMillis(200)));
        }
        for (CompletableFuture<JsonNode> f : expiring) {
            assertThat(errorOf(f)).isEqualTo(new McpBoundaryError.Timeout("py", "call_tool:echo", 200));
        }
        hanging.forEach(McpToolCall::cancel);
        assertThat(c.callTool("echo", args("text", "after"), T)).isEqualTo(TextNode.valueOf("after"));
        List<JsonNode> calls = received("tools/call");
        assertThat(calls).hasSize(5);
        assertThat(calls.get(4).at("/params/arguments/text").asText()).isEqualTo("after");
    }

    @Test
    void queuedCallsThatFallDueWithTheCallAheadOfThemAreNeverSent() {
        McpConnection c = open(McpClientOptions.builder().maxInFlight(1).build());
        List<CompletableFuture<JsonNode>> calls = new ArrayList<>();
        ScheduledExecutorService timer = SharedTimer.acquire();
        CountDownLatch busy = new CountDownLatch(1);
        try {
            // the shared timer is busy elsewhere: when it gets to this window, every call's deadline has passed
            timer.execute(() -> awaitQuietly(busy));
            long due = System.nanoTime() + Duration.ofMillis(300).toNanos();
            for (int i = 0; i < 5; i++) {
                calls.add(c.callToolAsync("slow", args("ms", 500).put("n", i), Duration.ofMillis(300)));
            }
            await().atMost(T).until(() -> System.nanoTime() - due > 0);
        } finally {
            busy.countDown();
            SharedTimer.release();
        }
        for (CompletableFuture<JsonNode> f : calls) {
            assertThat(errorOf(f)).isEqualTo(new McpBoundaryError.Timeout("py", "call_tool:slow", 300));
        }
        // the fixture reads its stdin in order: once this answer is back, every call sent before it was recorded
        assertThat(c.callTool("echo", args("text", "after"), T)).isEqualTo(TextNode.valueOf("after"));
        assertThat(received("tools/call").stream().filter(m -> "slow".equals(m.at("/params/name").asText())))
                .as("only the call that held the slot reached the server").hasSize(1);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void queuedCallsWhoseSendsAreRefusedFailAtOnceWithoutDeepStacks() {
        McpConnection c = McpProbe.probe(org.metaruntime.supervisor.ProcessSpec.builder("py")
                .command(Peers.python("py", dir.resolve("pid"), "--deaf-after-list").command())
                .stdinQueueBytes(64 * 1024).build(), McpClientOptions.builder().maxInFlight(1).build(), T).connection();
        opened.add(c);
        McpToolCall hanging = c.startCall("hang", null, McpCallOptions.of(LONG));
        String text = "x".repeat(80 * 1024); // more than the stdin queue takes: each send is refused at once
        List<CompletableFuture<JsonNode>> calls = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            calls.add(c.callToolAsync("echo", args("text", text), LONG));
        }
        hanging.cancel(); // the freed slot goes to each queued call in turn, one refused send after another
        for (CompletableFuture<JsonNode> f : calls) {
            assertThat(errorOf(f)).isInstanceOfSatisfying(McpBoundaryError.ToolCallFailed.class,
                    e -> assertThat(e.reason()).contains("could not send"));
        }
        assertThat(c.inFlight()).isZero();
    }

    @Test
    void anInterruptedCallerGetsInterruptedAndTheCallIsCancelled() throws Exception {
        McpConnection c = open(McpClientOptions.defaults());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                c.callTool("hang", null, LONG);
            } catch (RuntimeException e) {
                thrown.set(e);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        });
        caller.start();
        String id = sentId("hang");
        caller.interrupt();
        caller.join(T.toMillis());
        assertThat(thrown.get()).isInstanceOfSatisfying(McpBoundaryException.class, e -> assertThat(e.error())
                .isEqualTo(new McpBoundaryError.Interrupted("py", "call_tool:hang")));
        assertThat(stillInterrupted.get()).isTrue();
        await().atMost(T).until(() -> received(CANCELLED).stream()
                .anyMatch(m -> id.equals(m.at("/params/requestId").asText())));
        assertThat(c.inFlight()).isZero();
    }

    @Test
    void cancelInPerCallModeCancelsOnTheWireAndStopsTheServer() {
        Path pid = dir.resolve("percall-pid");
        McpToolCall call = McpPerCall.start(Peers.python("py", pid, "--record", record().toString()), "hang", null,
                McpCallOptions.of(LONG), McpClientOptions.defaults());
        String id = sentId("hang");
        long serverPid = Peers.readPid(pid);
        call.cancel();
        assertThat(errorOf(call.payload())).isEqualTo(new McpBoundaryError.Cancelled("py", "hang"));
        Peers.assertGone(serverPid);
        assertThat(received(CANCELLED)).anyMatch(m -> id.equals(m.at("/params/requestId").asText()));
    }

    @Test
    void perCallReturnsTheWholeResultAndThePayload() {
        McpToolCall call = McpPerCall.start(Peers.python("py", dir.resolve("pid")), "error", args("message", "nope"),
                McpCallOptions.of(T), McpClientOptions.defaults());
        assertThat(call.result().join().isError()).isTrue();
        assertThat(((McpBoundaryError.ToolReturnedError) errorOf(call.payload())).text()).isEqualTo("nope");
        Peers.assertGone(dir.resolve("pid"));
    }
}
