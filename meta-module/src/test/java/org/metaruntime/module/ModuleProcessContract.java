package org.metaruntime.module;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaruntime.module.ChildModule.call;
import static org.metaruntime.module.ChildModule.initialize;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.testing.LeakCheck;

/**
 * What every module SDK guarantees, checked on a sample module in a child process whose platform charset is
 * ISO-8859-1, on real pipes: concurrency, bad input, end of input, UTF-8 and a clean stdout. One subclass per SDK.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class ModuleProcessContract {

    /** Starts the SDK's sample module on a Latin-1 platform charset. */
    abstract ChildModule start() throws Exception;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void sixtyFourCallsInFlightAtOnceAreAllAnsweredEachWithItsId() throws Exception {
        try (ChildModule child = start()) {
            child.send(initialize("2025-06-18"));
            assertThat(child.next().at("/result/serverInfo/name").asText()).isEqualTo("sample");
            StringBuilder batch = new StringBuilder();
            for (int i = 1; i <= 64; i++) {
                // the tool answers only when all 64 run at the same time; ids alternate numbers and strings
                batch.append(call(i % 2 == 0 ? i : (Object) ("s" + i), "gather", "{\"n\":" + i + "}")).append('\n');
            }
            child.sendBytes(batch.toString().getBytes(StandardCharsets.UTF_8));
            Map<String, JsonNode> answers = new HashMap<>();
            for (int i = 0; i < 64; i++) {
                JsonNode answer = child.next();
                answers.put(answer.get("id").asText(), answer);
            }
            assertThat(answers).hasSize(64);
            for (int i = 1; i <= 64; i++) {
                String id = i % 2 == 0 ? String.valueOf(i) : "s" + i;
                assertThat(answers.get(id).at("/result/content/0/text").asText()).isEqualTo("gathered " + i);
                assertThat(answers.get(id).get("id").isTextual()).isEqualTo(i % 2 != 0);
            }
            child.closeStdin();
            assertThat(child.awaitExit()).isZero();
        }
    }

    @Test
    void malformedAndOverlongLinesAreSkippedAndTheLoopGoesOn() throws Exception {
        try (ChildModule child = start()) {
            child.send("this is not json");
            child.send("[1, 2]");
            child.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
            child.sendBytes(new byte[] {(byte) 0xff, (byte) 0xfe, '{', '\n'});
            child.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"pad\":\"" + "x".repeat(17 * 1024 * 1024) + "\"}");
            child.send("");
            child.send("{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"ping\"}");
            child.send(call(4, "word_count", "{\"text\":\"still here after all that\"}"));
            assertThat(child.next().at("/error/code").asInt()).as("jsonrpc 1.0").isEqualTo(-32600);
            JsonNode answer = child.next();
            assertThat(answer.get("id").asInt()).isEqualTo(4);
            assertThat(answer.at("/result/structuredContent/words").asInt()).isEqualTo(5);
            child.closeStdin();
            assertThat(child.awaitExit()).isZero();
            assertThat(child.hasMore()).as("nothing was answered for the skipped lines").isFalse();
            assertThat(child.stderr()).contains("skipped an input line that is not JSON: this is not json")
                    .contains("skipped an input line that is not a JSON object: [1, 2]")
                    .containsPattern("skipped an input line of \\d+ bytes \\(longer than 16777216\\)");
        }
    }

    @Test
    void endOfInputFinishesTheCallsInFlightThenExits() throws Exception {
        try (ChildModule child = start()) {
            StringBuilder batch = new StringBuilder(initialize("2025-11-25")).append('\n');
            for (int i = 1; i <= 20; i++) {
                batch.append(call(i, "slow", "{\"ms\":" + (200 + i * 10) + "}")).append('\n');
            }
            child.sendBytes(batch.toString().getBytes(StandardCharsets.UTF_8));
            child.closeStdin();
            assertThat(child.awaitExit()).isZero();
            Map<Integer, String> texts = new HashMap<>();
            while (child.hasMore()) {
                JsonNode answer = child.next();
                texts.put(answer.get("id").asInt(), answer.at("/result/content/0/text").asText());
            }
            assertThat(texts).hasSize(21);
            for (int i = 1; i <= 20; i++) {
                assertThat(texts.get(i)).isEqualTo("slept " + (200 + i * 10));
            }
        }
    }

    @Test
    void textIsUtf8BothWaysOnALatin1PlatformAndStdoutCarriesOnlyProtocol() throws Exception {
        try (ChildModule child = start()) {
            child.send(call(1, "reverse", "{\"text\":\"añb😀日本\"}"));
            assertThat(child.next().at("/result/content/0/text").asText()).isEqualTo("本日😀bña");
            child.send(call(2, "noisy", "{}"));
            assertThat(child.next().at("/result/content/0/text").asText()).isEqualTo("quiet");
            child.closeStdin();
            assertThat(child.awaitExit()).isZero();
            assertThat(child.hasMore()).isFalse();
            assertThat(child.stderr()).contains("a stray line on stdout");
        }
    }

    @Test
    void aCancelledCallIsNotAnsweredAndOthersAre() throws Exception {
        try (ChildModule child = start()) {
            child.send(call(1, "block", "{}"));
            child.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}");
            child.send(call(2, "reverse", "{\"text\":\"ab\"}"));
            JsonNode answer = child.next();
            assertThat(answer.get("id").asInt()).isEqualTo(2);
            child.closeStdin();
            assertThat(child.awaitExit()).as("the blocked call was interrupted, so end of input is quick").isZero();
            assertThat(child.hasMore()).isFalse();
        }
    }
}
