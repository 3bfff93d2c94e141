package org.metaruntime.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The single stdin writer: order, close, a stalled child, a gone child. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModuleProcessStdinTest {

    @RegisterExtension
    final Fixtures fixtures = new Fixtures();
    final RecordingListener listener = new RecordingListener();

    @Test
    @Timeout(60)
    void sentLinesArriveInOrderAndCloseStdinEndsTheChild() {
        ModuleProcess process = fixtures.start(fixtures.spec("echo", "echo").build(), listener);
        for (int i = 0; i < 100; i++) {
            process.send("line " + i + " \u00e9\u2713");
        }
        process.closeStdin();
        ProcessExit exit = process.exitFuture().join();
        assertThat(exit.exitCode()).isZero();
        assertThat(exit.requestedByRuntime()).isFalse();
        assertThat(listener.lines).hasSize(101).startsWith("ready", "echo: line 0 \u00e9\u2713")
                .endsWith("echo: line 99 \u00e9\u2713");
    }

    @Test
    @Timeout(60)
    void acknowledgedLinesAndQueuedLinesReachTheChildOnceEachInOrder() throws Exception {
        ModuleProcess process = fixtures.start(fixtures.spec("echo", "echo").build(), listener);
        await().until(() -> listener.lines.contains("ready"));
        int threads = 4;
        int perThread = 100;
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String name = "t" + t;
            senders.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    String line = name + " " + i;
                    long number = process.send(line);
                    await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                            .until(() -> listener.lines.contains("echo: " + line));
                    process.acknowledge(number); // the echo proves the child read it
                }
            }));
        }
        senders.forEach(Thread::start);
        for (Thread sender : senders) {
            sender.join();
        }
        process.closeStdin();
        assertThat(process.exitFuture().join().exitCode()).isZero();
        List<String> echoed = listener.lines.subList(1, listener.lines.size());
        assertThat(echoed).hasSize(threads * perThread).doesNotHaveDuplicates();
        for (int t = 0; t < threads; t++) {
            String prefix = "echo: t" + t + " ";
            List<String> mine = echoed.stream().filter(l -> l.startsWith(prefix)).collect(Collectors.toList());
            assertThat(mine).hasSize(perThread);
            for (int i = 0; i < perThread; i++) {
                assertThat(mine.get(i)).isEqualTo(prefix + i);
            }
        }
    }

    @Test
    @Timeout(60)
    void aChildThatNeverReadsStdinNeverBlocksTheCallerAndTheQueueIsBounded() {
        int queueBytes = 256 * 1024;
        ModuleProcess process = fixtures.start(
                fixtures.spec("stalled", "sleep_long").stdinQueueBytes(queueBytes).build(), listener);
        String line = "x".repeat(1023);
        int accepted = 0;
        ProcessBoundaryException refused = null;
        // 64 MiB would be written if nothing were bounded; the loop must end with a refusal long before.
        for (int i = 0; i < 64 * 1024 && refused == null; i++) {
            try {
                process.send(line);
                accepted++;
            } catch (ProcessBoundaryException e) {
                refused = e;
            }
        }
        assertThat(refused).isNotNull();
        assertThat(refused.error()).isInstanceOf(ProcessBoundaryError.Io.class);
        assertThat(refused.error().message()).contains("limit of " + queueBytes + " bytes");
        // The queue holds its bound; the pipe and the stream buffer take a little more.
        assertThat(accepted).isGreaterThanOrEqualTo(queueBytes / 1024);
        assertThat(process.isAlive()).isTrue();

        StopReport report = process.stop(new StopLadder(
                java.time.Duration.ofMillis(100), java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(10)));
        assertThat(report.stage()).isEqualTo(StopStage.EXITED_AFTER_SIGTERM);
        assertThatThrownBy(() -> process.send("late"))
                .isInstanceOfSatisfying(ProcessBoundaryException.class,
                        e -> assertThat(e.error()).isInstanceOf(ProcessBoundaryError.Io.class));
    }

    @Test
    @Timeout(60)
    void sendAfterCloseStdinIsAnIoError() {
        ModuleProcess process = fixtures.start(fixtures.spec("closed", "sleep_long").build(), listener);
        process.closeStdin();
        assertThatThrownBy(() -> process.send("x"))
                .isInstanceOfSatisfying(ProcessBoundaryException.class, e -> {
                    assertThat(e.moduleId()).isEqualTo("closed");
                    assertThat(e.error()).isEqualTo(new ProcessBoundaryError.Io("cannot write to stdin: it is closed"));
                });
    }

    @Test
    @Timeout(60)
    void sendAfterExitIsAnIoError() {
        ModuleProcess process = fixtures.start(fixtures.spec("gone", "valid_line").build(), listener);
        process.exitFuture().join();
        await().until(() -> !process.isAlive());
        assertThatThrownBy(() -> process.send("x"))
                .isInstanceOfSatisfying(ProcessBoundaryException.class, e -> assertThat(e.error())
                        .isEqualTo(new ProcessBoundaryError.Io("cannot write to stdin: the process has exited")));
    }

    @Test
    @Timeout(60)
    void aLineWithANewlineIsRejected() {
        ModuleProcess process = fixtures.start(fixtures.spec("nl", "sleep_long").build(), listener);
        assertThatThrownBy(() -> process.send("a\nb")).isInstanceOf(IllegalArgumentException.class);
    }
}
