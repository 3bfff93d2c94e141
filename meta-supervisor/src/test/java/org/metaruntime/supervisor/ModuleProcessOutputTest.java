package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Stdout framing and decoding, stderr tail and exit, with real child processes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModuleProcessOutputTest {

    @RegisterExtension
    final Fixtures fixtures = new Fixtures();
    final RecordingListener listener = new RecordingListener();

    /** Runs the child to its end; returns its exit once both the future and the listener have it. */
    private ProcessExit run(ProcessSpec spec) {
        ModuleProcess process = fixtures.start(spec, listener);
        ProcessExit exit = process.exitFuture().join();
        assertThat(listener.exit.join()).isEqualTo(exit);
        return exit;
    }

    @Test
    @Timeout(60)
    void deliversAValidLineThenStdoutClosedThenExit() {
        ProcessExit exit = run(fixtures.spec("valid", "valid_line").build());
        String line = "{\"module\":\"fixture\",\"kind\":\"ready\",\"payload\":{\"ok\":true}}";
        assertThat(listener.events).containsExactly("line:" + line, "closed", "exit:0");
        assertThat(exit.moduleId()).isEqualTo("valid");
        assertThat(exit.pid()).isEqualTo(fixtures.pids().get(0));
        assertThat(exit.exitCode()).isZero();
        assertThat(exit.requestedByRuntime()).isFalse();
        assertThat(listener.exitCalls).hasValue(1);
    }

    @Test
    @Timeout(60)
    void theListenerHasTheExitBeforeTheExitFutureCompletes() {
        ModuleProcess process = fixtures.start(fixtures.spec("ordered", "silent_exit").build(), listener);
        int listenerCallsSeenByTheFuture = process.exitFuture().thenApply(exit -> listener.exitCalls.get()).join();
        assertThat(listenerCallsSeenByTheFuture).isEqualTo(1);
    }

    @Test
    @Timeout(60)
    void dropsCarriageReturnBeforeNewline() {
        run(fixtures.spec("crlf", "crlf").build());
        assertThat(listener.lines).containsExactly("first", "second", "");
    }

    @Test
    @Timeout(60)
    void aLastLineWithoutNewlineCounts() {
        run(fixtures.spec("nonl", "no_newline").build());
        assertThat(listener.lines).containsExactly("complete", "last without newline");
    }

    @Test
    @Timeout(60)
    void nonJsonLinesAreDeliveredAsText() {
        run(fixtures.spec("nonjson", "non_json").build());
        assertThat(listener.lines).containsExactly("hello, this is not json", "{\"ok\":true}");
    }

    @Test
    @Timeout(60)
    void exitWithoutOutputKeepsTheExitCodeAndStderrTail() {
        ProcessExit exit = run(fixtures.spec("silent", "silent_exit").build());
        assertThat(listener.events).containsExactly("closed", "exit:3");
        assertThat(exit.exitCode()).isEqualTo(3);
        assertThat(exit.stderrTail()).isEqualTo("nothing to say\n");
    }

    @Test
    @Timeout(60)
    void malformedUtf8IsReplacedPerSequence() {
        run(fixtures.spec("utf8", "invalid_utf8").build());
        assertThat(listener.lines).containsExactly("a\uFFFDb", "\uFFFD(", "cut \uFFFD", "caf\u00e9 \u2713");
    }

    @Test
    @Timeout(60)
    void aCharacterWrittenByteByByteIsDecodedWhole() {
        run(fixtures.spec("emoji", "split_emoji").build());
        assertThat(listener.lines).containsExactly("smile \uD83D\uDE00");
    }

    @Test
    @Timeout(60)
    void aLineOverTheLimitIsReportedAndSkipped() {
        run(fixtures.spec("big", "big_line", "2").maxLineBytes(1024 * 1024).build());
        assertThat(listener.events).containsExactly("tooLong:1048576", "oversized:" + 2 * 1024 * 1024, "line:after",
                "closed", "exit:0");
    }

    @Test
    @Timeout(60)
    void aSkippedLineIsReportedWithItsLengthAndFirstBytes() {
        String prefix = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":\"";
        run(fixtures.spec("big", "big_line", "1", prefix).maxLineBytes(4096).build());
        assertThat(listener.oversized).hasSize(1);
        OversizedLine line = listener.oversized.get(0);
        assertThat(line.limit()).isEqualTo(4096);
        assertThat(line.length()).isEqualTo(prefix.length() + 1024 * 1024);
        assertThat(line.head()).hasSize(OversizedLine.HEAD_BYTES).startsWith(prefix + "xxx");
        assertThat(listener.lines).containsExactly("after");
    }

    @Test
    @Timeout(60)
    void aStderrFloodKeepsABoundedTailAndStdoutWorks() {
        ProcessExit exit = run(fixtures.spec("flood", "stderr_flood").build());
        assertThat(listener.lines).containsExactly("done");
        assertThat(exit.exitCode()).isZero();
        assertThat(exit.stderrTail().length()).isEqualTo(64 * 1024);
        assertThat(exit.stderrTail()).endsWith("eee\nTAIL-END\n");
    }

    @Test
    @Timeout(60)
    void aChildThatClosesStderrKeepsWorking() {
        ModuleProcess process = fixtures.start(fixtures.spec("nostderr", "close_stderr").build(), listener);
        org.awaitility.Awaitility.await().until(() -> listener.lines.contains("stderr closed"));
        process.send("one");
        process.send("two");
        org.awaitility.Awaitility.await().until(() -> listener.lines.contains("got two"));
        assertThat(process.isAlive()).isTrue();
        process.closeStdin();
        ProcessExit exit = process.exitFuture().join();
        assertThat(listener.lines).containsExactly("stderr closed", "got one", "got two");
        assertThat(exit.exitCode()).isZero();
        assertThat(exit.stderrTail()).isEmpty();
    }

    @Test
    @Timeout(60)
    void aThrowingListenerDoesNotStopDelivery() {
        RecordingListener recorder = listener;
        ProcessListener throwing = new ProcessListener() {
            @Override
            public void onLine(String line) {
                recorder.onLine(line);
                throw new IllegalStateException("listener bug on " + line);
            }

            @Override
            public void onStdoutClosed() {
                recorder.onStdoutClosed();
                throw new IllegalStateException("listener bug on close");
            }

            @Override
            public void onExit(ProcessExit exit) {
                recorder.onExit(exit);
                throw new IllegalStateException("listener bug on exit");
            }
        };
        ModuleProcess process = fixtures.start(fixtures.spec("throwing", "crlf").build(), throwing);
        ProcessExit exit = process.exitFuture().join();
        listener.exit.join();
        assertThat(exit.exitCode()).isZero();
        assertThat(listener.events).containsExactly("line:first", "line:second", "line:", "closed", "exit:0");
    }
}
