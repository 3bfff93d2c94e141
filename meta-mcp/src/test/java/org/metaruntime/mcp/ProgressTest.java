package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Progress per call: server-everything's long-running operation and the python fixture's progress tool. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ProgressTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final OpenConnections opened = new OpenConnections();

    private McpConnection everything() {
        McpConnection c = McpProbe.probe(Peers.everything("everything"), McpClientOptions.defaults(), T).connection();
        opened.add(c);
        return c;
    }

    private McpConnection python(String... switches) {
        McpConnection c = McpProbe.probe(Peers.python("py", dir.resolve("pid"), switches), McpClientOptions.defaults(), T)
                .connection();
        opened.add(c);
        return c;
    }

    private static JsonNode longRunning(double seconds, int steps) {
        return JSON.createObjectNode().put("duration", seconds).put("steps", steps);
    }

    /** A listener that records updates and checks that it is never run by two threads at once. */
    private static final class Recorder {
        final List<McpProgress> updates = new CopyOnWriteArrayList<>();
        final AtomicInteger running = new AtomicInteger();
        volatile boolean overlapped;

        void accept(McpProgress p) {
            if (running.incrementAndGet() > 1) {
                overlapped = true;
            }
            updates.add(p);
            running.decrementAndGet();
        }
    }

    @Test
    void longRunningOperationReportsEveryStepInOrderBeforeTheResult() {
        McpConnection c = everything();
        Recorder recorder = new Recorder();
        List<Integer> seenWhenDone = Collections.synchronizedList(new ArrayList<>());
        McpToolCall call = c.startCall("trigger-long-running-operation", longRunning(0.5, 5),
                McpCallOptions.builder(T).onProgress(recorder::accept).build());
        JsonNode payload = call.payload().thenApply(p -> {
            seenWhenDone.add(recorder.updates.size());
            return p;
        }).join();
        assertThat(payload.asText()).contains("Long running operation completed");
        assertThat(seenWhenDone).containsExactly(5);
        assertThat(recorder.updates).extracting(McpProgress::progress).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
        assertThat(recorder.updates).extracting(McpProgress::total).containsOnly(5.0);
        assertThat(recorder.overlapped).isFalse();
    }

    @Test
    void progressNeverExtendsTheTimeoutUnlessAskedTo() {
        McpConnection c = everything();
        Recorder recorder = new Recorder();
        // 16 steps of 0.25 s: 4 s in all, twice the timeout, but never more than 0.25 s without progress
        McpToolCall limited = c.startCall("trigger-long-running-operation", longRunning(4, 16),
                McpCallOptions.builder(Duration.ofSeconds(2)).onProgress(recorder::accept).build());
        CompletionException e = catchThrowableOfType(CompletionException.class, limited.payload()::join);
        assertThat(((McpBoundaryException) e.getCause()).error()).isEqualTo(new McpBoundaryError.Timeout("everything",
                "call_tool:trigger-long-running-operation", 2000));
        assertThat(recorder.updates).hasSizeLessThan(16);

        Recorder reset = new Recorder();
        McpToolCall extended = c.startCall("trigger-long-running-operation", longRunning(4, 16),
                McpCallOptions.builder(Duration.ofSeconds(2)).onProgress(reset::accept).resetTimeoutOnProgress(true)
                        .build());
        assertThat(extended.payload().join().asText()).contains("Steps: 16");
        assertThat(reset.updates).hasSize(16);
    }

    @Test
    void concurrentCallsSeeOnlyTheirOwnProgress() {
        McpConnection c = python();
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        McpToolCall callA = c.startCall("progress", JSON.createObjectNode().put("steps", 200).put("label", "A"),
                McpCallOptions.builder(T).onProgress(a::accept).build());
        McpToolCall callB = c.startCall("progress", JSON.createObjectNode().put("steps", 200).put("label", "B"),
                McpCallOptions.builder(T).onProgress(b::accept).build());
        assertThat(callA.payload().join()).isEqualTo(TextNode.valueOf("done 200"));
        assertThat(callB.payload().join()).isEqualTo(TextNode.valueOf("done 200"));
        for (Recorder r : List.of(a, b)) {
            assertThat(r.updates).hasSize(200);
            assertThat(r.overlapped).isFalse();
            for (int i = 0; i < 200; i++) {
                assertThat(r.updates.get(i).progress()).isEqualTo(i + 1);
            }
        }
        assertThat(a.updates).allSatisfy(p -> assertThat(p.message()).startsWith("A "));
        assertThat(b.updates).allSatisfy(p -> assertThat(p.message()).startsWith("B "));
    }

    @Test
    void aThrowingListenerKeepsReceivingAndNeverFailsTheCall() {
        McpConnection c = python();
        List<Double> seen = new CopyOnWriteArrayList<>();
        McpToolCall call = c.startCall("progress", JSON.createObjectNode().put("steps", 5),
                McpCallOptions.builder(T).onProgress(p -> {
                    seen.add(p.progress());
                    throw new IllegalStateException("listener failed on purpose");
                }).build());
        assertThat(call.payload().join()).isEqualTo(TextNode.valueOf("done 5"));
        assertThat(seen).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
    }

    @Test
    void aProgressTokenIsSentOnlyWithAListenerAndIsUniquePerCall() throws Exception {
        Path record = dir.resolve("stdin.jsonl");
        McpConnection c = python("--record", record.toString());
        c.callTool("progress", JSON.createObjectNode().put("steps", 1), T);
        McpCallOptions listening = McpCallOptions.builder(T).onProgress(p -> { }).build();
        c.startCall("progress", JSON.createObjectNode().put("steps", 1), listening).payload().join();
        c.startCall("progress", JSON.createObjectNode().put("steps", 1), listening).payload().join();
        List<JsonNode> calls = new ArrayList<>();
        for (String line : Files.readAllLines(record)) {
            JsonNode m = JSON.readTree(line);
            if ("tools/call".equals(m.path("method").asText())) {
                calls.add(m);
            }
        }
        assertThat(calls).hasSize(3);
        assertThat(calls.get(0).at("/params/_meta").isMissingNode()).isTrue();
        String first = calls.get(1).at("/params/_meta/progressToken").asText();
        String second = calls.get(2).at("/params/_meta/progressToken").asText();
        assertThat(first).isNotBlank();
        assertThat(second).isNotBlank().isNotEqualTo(first);
    }
}
