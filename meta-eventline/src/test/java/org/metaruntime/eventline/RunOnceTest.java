package org.metaruntime.eventline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.ModuleEvent;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.StopLadder;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunOnceTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    /** Long enough for a loaded machine to start python; the timeout tests wait for it in full. */
    private static final Duration SHORT_TIMEOUT = Duration.ofSeconds(5);

    private final EventLineRunner runner = EventLineRunner.create();

    @RegisterExtension
    final Fixtures fixtures = new Fixtures();

    @Test
    void validFlatLineWithTheSpecEnvironment() {
        ProcessSpec spec = fixtures.module("ok").env("MODULE_ECHO", "hello from the spec").build();
        long before = System.currentTimeMillis();

        EventEnvelope<UnifiedEvent> event = runner.runOnce(spec, TIMEOUT);

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
        assertThat(event.source()).isEqualTo("module");
        assertThat(event.timestampMs()).as("the child's own timestamp")
                .isBetween(before - 1000, System.currentTimeMillis() + 1000);
        ModuleEvent module = moduleEvent(event);
        assertThat(module.module()).isEqualTo(Fixtures.MODULE);
        assertThat(module.eventType()).isEqualTo("ready");
        assertThat(module.payload().get("env").get("MODULE_ECHO").asText()).isEqualTo("hello from the spec");
        assertThat(module.payload().get("text").asText()).isEqualTo("héllo 🌍");
        fixtures.assertStarted(1, 0);
    }

    @Test
    void validEnvelopeFormLine() {
        EventEnvelope<UnifiedEvent> event = runner.runOnce(fixtures.module("envelope").build(), TIMEOUT);

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
        assertThat(moduleEvent(event).module()).isEqualTo(Fixtures.MODULE);
        assertThat(moduleEvent(event).eventType()).isEqualTo("ready");
        assertThat(moduleEvent(event).payload().get("text").asText()).isEqualTo("héllo 🌍");
    }

    @Test
    void crlfLineEnding() {
        EventEnvelope<UnifiedEvent> event = runner.runOnce(fixtures.module("crlf").build(), TIMEOUT);

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
        assertThat(moduleEvent(event).eventType()).isEqualTo("ready");
    }

    @Test
    void lastLineWithoutNewline() {
        EventEnvelope<UnifiedEvent> event = runner.runOnce(fixtures.module("no_newline").build(), TIMEOUT);

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
        assertThat(moduleEvent(event).payload().get("text").asText()).isEqualTo("héllo 🌍");
    }

    @Test
    void stdinIsClosedAtOnce() {
        EventEnvelope<UnifiedEvent> event = runner.runOnce(fixtures.module("read_stdin").build(), TIMEOUT);

        assertThat(moduleEvent(event).payload().get("stdin_bytes").asInt()).isZero();
    }

    @Test
    void sleepingPastTheTimeoutKillsTheTreeIncludingTheGrandchild() {
        EventLineException e = runExpectingFailure(fixtures.moduleWithGrandchild("slow").build(), SHORT_TIMEOUT);

        assertThat(e.error()).isEqualTo(processError(new ProcessBoundaryError.Timeout(SHORT_TIMEOUT.toMillis())));
        assertThat(e.moduleId()).isEqualTo(Fixtures.MODULE);
        assertThat(e.getMessage()).startsWith("module 'fixture': ").contains("5000 ms");
        fixtures.assertStarted(1, 1);
    }

    @Test
    void exitWithoutOutputIsEmptyOutputWithExitCodeAndStderr() {
        EventLineException e = runExpectingFailure(fixtures.module("empty").build(), TIMEOUT);

        assertThat(e.error()).isEqualTo(processError(new ProcessBoundaryError.EmptyOutput()));
        assertThat(e.exitCode()).hasValue(3);
        assertThat(e.stderrTail()).contains("fixture: nothing to say");
        assertThat(e.getMessage())
                .startsWith("module 'fixture': ")
                .contains("exit code 3")
                .contains("fixture: nothing to say");
    }

    @Test
    void nonJsonLineIsInvalidJson() {
        EventLineException e = runExpectingFailure(fixtures.module("garbage").build(), TIMEOUT);

        assertThat(e.error()).isEqualTo(normalizeError(new NormalizationError.InvalidJson()));
        assertThat(e.getCause()).isInstanceOf(NormalizationException.class);
        assertThat(e.getMessage()).startsWith("module 'fixture': ");
    }

    @Test
    void missingFieldIsReportedByName() {
        EventLineException e = runExpectingFailure(fixtures.module("missing_field").build(), TIMEOUT);

        assertThat(e.error()).isEqualTo(normalizeError(new NormalizationError.MissingField("timestamp_ms")));
    }

    @Test
    void invalidUtf8IsInvalidJson() {
        EventLineException e = runExpectingFailure(fixtures.module("invalid_utf8").build(), TIMEOUT);

        assertThat(e.error()).isEqualTo(normalizeError(new NormalizationError.InvalidJson()));
    }

    @Test
    void invalidUtf8InsideAStringBecomesTheReplacementCharacter() {
        EventEnvelope<UnifiedEvent> event = runner.runOnce(fixtures.module("invalid_utf8_in_string").build(), TIMEOUT);

        assertThat(event.eventId()).isEqualTo("evt-bad-\uFFFD");
    }

    @Test
    void childThatStaysAliveIsStoppedAfterTheExitGrace() {
        EventEnvelope<UnifiedEvent> event =
                runner.runOnce(fixtures.module("stay").build(), TIMEOUT, Duration.ofMillis(200));

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
        fixtures.assertStarted(1, 0);
        assertThat(fixtures.pids("child")).as("the child is gone when runOnce returns")
                .noneMatch(Fixtures::alive);
    }

    @Test
    void zeroExitGraceStopsAtOnce() {
        EventEnvelope<UnifiedEvent> event = runner.runOnce(fixtures.module("stay").build(), TIMEOUT, Duration.ZERO);

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
    }

    @Test
    void childIgnoringSigtermIsKilledWithItsGrandchild() {
        EventLineRunner quick = EventLineRunner.builder()
                .stopLadder(new StopLadder(Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(2)))
                .build();

        EventEnvelope<UnifiedEvent> event =
                quick.runOnce(fixtures.moduleWithGrandchild("ignore_term").build(), TIMEOUT, Duration.ofMillis(100));

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
        fixtures.assertStarted(1, 1);
        assertThat(fixtures.pids("child")).as("the child is gone when runOnce returns")
                .noneMatch(Fixtures::alive);
    }

    @Test
    void grandchildHoldingStdoutDoesNotHoldTheRunAndIsStopped() {
        EventEnvelope<UnifiedEvent> event = runner.runOnce(fixtures.moduleWithGrandchild("ok").build(), TIMEOUT);

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
        fixtures.assertStarted(1, 1);
    }

    @Test
    void grandchildHoldingStdoutAfterASilentExitIsEmptyOutput() {
        EventLineException e = runExpectingFailure(fixtures.moduleWithGrandchild("empty").build(), TIMEOUT);

        assertThat(e.error()).isEqualTo(processError(new ProcessBoundaryError.EmptyOutput()));
        assertThat(e.exitCode()).hasValue(3);
        assertThat(e.getMessage()).contains("exit code 3").contains("fixture: nothing to say");
        fixtures.assertStarted(1, 1);
    }

    @Test
    void tenMegabytesOfStderrBeforeTheLine() {
        EventEnvelope<UnifiedEvent> event = runner.runOnce(fixtures.module("stderr_flood").build(), TIMEOUT);

        assertThat(event.eventId()).isEqualTo(fixtures.eventId());
    }

    @Test
    void missingExecutableIsSpawnFailed() {
        ProcessSpec spec = fixtures.base().command(fixtures.dir().resolve("no-such-program").toString()).build();

        EventLineException e = runExpectingFailure(spec, TIMEOUT);

        assertThat(e.error()).isInstanceOf(EventLineError.Process.class);
        assertThat(((EventLineError.Process) e.error()).error()).isInstanceOf(ProcessBoundaryError.SpawnFailed.class);
        assertThat(e.getCause()).isInstanceOf(ProcessBoundaryException.class);
        assertThat(e.exitCode()).isEmpty();
        fixtures.assertStarted(0, 0);
    }

    @Test
    void badWorkdirIsSpawnFailed() {
        ProcessSpec spec = fixtures.module("ok").workdir(fixtures.dir().resolve("no-such-dir")).build();

        EventLineException e = runExpectingFailure(spec, TIMEOUT);

        assertThat(((EventLineError.Process) e.error()).error()).isInstanceOf(ProcessBoundaryError.SpawnFailed.class);
        fixtures.assertStarted(0, 0);
    }

    @Test
    void interruptingTheCallerKillsTheChildAndKeepsTheInterrupt() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> interrupted = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                runner.runOnce(fixtures.moduleWithGrandchild("slow").build(), Duration.ofSeconds(50));
            } catch (Throwable t) {
                thrown.set(t);
            }
            interrupted.set(Thread.currentThread().isInterrupted());
        }, "test-caller");
        caller.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> fixtures.pids("grandchild").size() == 1);
        caller.interrupt();
        caller.join(TimeUnit.SECONDS.toMillis(20));

        assertThat(caller.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(EventLineException.class);
        EventLineError error = ((EventLineException) thrown.get()).error();
        assertThat(((EventLineError.Process) error).error()).isInstanceOf(ProcessBoundaryError.Cancelled.class);
        assertThat(interrupted.get()).isTrue();
    }

    @Test
    void concurrentRunsAreIndependent() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<EventEnvelope<UnifiedEvent>>> runs = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                ProcessSpec spec = fixtures.module("ok").env("MODULE_ECHO", "run-" + i).build();
                runs.add(pool.submit(() -> runner.runOnce(spec, TIMEOUT)));
            }
            for (int i = 0; i < runs.size(); i++) {
                JsonNode payload = moduleEvent(runs.get(i).get(60, TimeUnit.SECONDS)).payload();
                assertThat(payload.get("env").get("MODULE_ECHO").asText()).isEqualTo("run-" + i);
            }
        } finally {
            pool.shutdownNow();
        }
        fixtures.assertStarted(16, 0);
    }

    @Test
    void rejectsBadArguments() {
        ProcessSpec spec = fixtures.module("ok").build();

        assertThatThrownBy(() -> runner.runOnce(null, TIMEOUT)).isInstanceOf(NullPointerException.class)
                .hasMessage("spec");
        assertThatThrownBy(() -> runner.runOnce(spec, null)).isInstanceOf(NullPointerException.class)
                .hasMessage("timeout");
        assertThatThrownBy(() -> runner.runOnce(spec, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> runner.runOnce(spec, TIMEOUT, Duration.ofMillis(-1)))
                .isInstanceOf(InvalidOptionException.class).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid configuration at exitGrace: must not be negative, got PT-0.001S");
        assertThatThrownBy(() -> runner.startAttempt(spec, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        fixtures.assertStarted(0, 0);
    }

    private EventLineException runExpectingFailure(ProcessSpec spec, Duration timeout) {
        EventLineException e = catchThrowableOfType(EventLineException.class, () -> runner.runOnce(spec, timeout));
        assertThat(e).as("runOnce must fail with an EventLineException").isNotNull();
        return e;
    }

    static ModuleEvent moduleEvent(EventEnvelope<UnifiedEvent> event) {
        assertThat(event.event()).isInstanceOf(UnifiedEvent.Module.class);
        return ((UnifiedEvent.Module) event.event()).event();
    }

    static EventLineError processError(ProcessBoundaryError error) {
        return new EventLineError.Process(error);
    }

    static EventLineError normalizeError(NormalizationError error) {
        return new EventLineError.Normalize(error);
    }
}
