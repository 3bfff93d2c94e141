package org.metaruntime.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.internal.BoundaryFailure;
import org.metaruntime.core.internal.ChildExit;
import org.metaruntime.core.internal.EventLineBoundary;
import org.metaruntime.core.internal.InProcessBoundaries;
import org.metaruntime.core.internal.ModuleBoundary;
import org.metaruntime.core.internal.ModuleChild;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.ProcessBoundaryError;

/**
 * A fake event-line module: every "spawn" (a startup attempt or a routed one-shot call) answers with a scripted
 * first event, or fails with a scripted error, without a process.
 *
 * <pre>{@code
 * FakeEventLineModule weather = FakeEventLineModule.builder("weather")
 *         .payload(run -> mapper.createObjectNode().put("forecast", "sunny").put("run", run)) // run = 1, 2, ...
 *         .build();
 * weather.failNextSpawns(1, new ProcessBoundaryError.EmptyOutput());     // the next spawn fails
 * weather.crash(137, "killed");                                          // the kept child dies
 * }</pre>
 *
 * <p>A kept child (the startup's final healthy child) stays "running" until {@link #crash} or
 * {@link Builder#exitAfterStart(int)} ends it, or the runtime stops it. Thread-safe.
 */
public final class FakeEventLineModule implements FakeModule {

    static {
        InProcessBoundaries.register(FakeEventLineModule.class, FakeEventLineModule::boundary);
    }

    private final String moduleId;
    private final IntFunction<EventEnvelope<UnifiedEvent>> firstEvent;
    private final Integer exitAfterStart;
    private final Clock clock;
    private final ScriptedFailures<RuntimeBoundaryError> failures = new ScriptedFailures<>();
    private final AtomicInteger spawns = new AtomicInteger();
    private final FakeChildren children = new FakeChildren();

    private FakeEventLineModule(Builder b) {
        this.moduleId = b.moduleId;
        this.clock = b.clock;
        this.exitAfterStart = b.exitAfterStart;
        this.firstEvent = b.firstEvent != null ? b.firstEvent : run -> EventEnvelope.module(
                "evt-" + moduleId + "-" + run, clock.millis(), moduleId, b.eventType, b.payload.apply(run));
    }

    /** A builder for the fake of {@code moduleId}. */
    public static Builder builder(String moduleId) {
        return new Builder(Objects.requireNonNull(moduleId, "moduleId"));
    }

    @Override
    public String moduleId() {
        return moduleId;
    }

    @Override
    public ModuleBoundaryKind kind() {
        return ModuleBoundaryKind.EVENT_LINE;
    }

    /**
     * The next {@code count} spawns fail with {@code error} (e.g. {@code EmptyOutput}, {@code Timeout}); except for
     * {@code SpawnFailed}, the failure is reported as coming from a process that exited with code 1.
     */
    public FakeEventLineModule failNextSpawns(int count, ProcessBoundaryError error) {
        return failNext(count, new RuntimeBoundaryError.Process(Objects.requireNonNull(error, "error")));
    }

    /** The next {@code count} spawns write a line that does not normalise ({@code error}). */
    public FakeEventLineModule failNextSpawns(int count, NormalizationError error) {
        return failNext(count, new RuntimeBoundaryError.Normalize(Objects.requireNonNull(error, "error")));
    }

    private FakeEventLineModule failNext(int count, RuntimeBoundaryError error) {
        failures.add(count, error);
        return this;
    }

    /** Ends every live kept child as if its process exited with {@code exitCode} (0: it completed). */
    public void crash(int exitCode, String stderrTail) {
        children.crashAll(exitCode, Objects.requireNonNull(stderrTail, "stderrTail"));
    }

    /** How many spawns (startup attempts and one-shot calls) were made. */
    public int spawnCount() {
        return spawns.get();
    }

    /** How many kept children are alive. */
    public int liveChildren() {
        return children.live();
    }

    private EventEnvelope<UnifiedEvent> spawn() {
        int run = spawns.incrementAndGet();
        RuntimeBoundaryError failure = failures.poll();
        if (failure != null) {
            boolean ran = !(failure instanceof RuntimeBoundaryError.Process
                    && ((RuntimeBoundaryError.Process) failure).error() instanceof ProcessBoundaryError.SpawnFailed);
            throw new BoundaryFailure(moduleId, failure, ran ? OptionalInt.of(1) : OptionalInt.empty(), "", null);
        }
        return firstEvent.apply(run);
    }

    private ModuleBoundary boundary(Executor executor) {
        return new EventLineBoundary() {
            @Override
            public ModuleChild start(Duration timeout) {
                EventEnvelope<UnifiedEvent> event = spawn();
                Child child = new Child(event);
                children.add(child);
                if (exitAfterStart != null) {
                    child.end(new ChildExit(OptionalInt.of(exitAfterStart), "", false));
                }
                return child;
            }

            @Override
            public InFlight<EventEnvelope<UnifiedEvent>> run(Duration timeout) {
                CompletableFuture<EventEnvelope<UnifiedEvent>> event =
                        CompletableFuture.supplyAsync(FakeEventLineModule.this::spawn, executor);
                return InFlight.of(event, () -> event.cancel(false));
            }
        };
    }

    private final class Child extends FakeChildren.Base {
        private final EventEnvelope<UnifiedEvent> event;

        Child(EventEnvelope<UnifiedEvent> event) {
            children.super();
            this.event = event;
        }

        @Override
        public Optional<EventEnvelope<UnifiedEvent>> firstEvent() {
            return Optional.of(event);
        }
    }

    /** Builds a {@link FakeEventLineModule}. Not thread-safe. */
    public static final class Builder {
        private final String moduleId;
        private String eventType = "ready";
        private IntFunction<JsonNode> payload = run -> JsonNodeFactory.instance.objectNode().put("run", run);
        private IntFunction<EventEnvelope<UnifiedEvent>> firstEvent;
        private Integer exitAfterStart;
        private Clock clock = Clock.systemUTC();

        private Builder(String moduleId) {
            this.moduleId = moduleId;
        }

        /** The event type of the first event. Default {@code ready}. */
        public Builder eventType(String eventType) {
            this.eventType = Objects.requireNonNull(eventType, "eventType");
            return this;
        }

        /** The same payload on every spawn. Default {@code {"run": n}}. */
        public Builder payload(JsonNode payload) {
            Objects.requireNonNull(payload, "payload");
            this.payload = run -> payload;
            return this;
        }

        /** The payload of spawn number {@code run} (from 1). */
        public Builder payload(IntFunction<JsonNode> payload) {
            this.payload = Objects.requireNonNull(payload, "payload");
            return this;
        }

        /** The whole first event of spawn number {@code run}, e.g. an event of another module or an agent event. */
        public Builder firstEvent(IntFunction<EventEnvelope<UnifiedEvent>> firstEvent) {
            this.firstEvent = Objects.requireNonNull(firstEvent, "firstEvent");
            return this;
        }

        /** Each kept child exits with {@code exitCode} right after its first event (0: it completed). */
        public Builder exitAfterStart(int exitCode) {
            this.exitAfterStart = exitCode;
            return this;
        }

        /** The clock of the default first events' timestamps. Default {@link Clock#systemUTC()}. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public FakeEventLineModule build() {
            return new FakeEventLineModule(this);
        }
    }
}
