package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.ModuleEvent;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;

/**
 * Event-line modules: a start keeps the child that wrote its first event; a routed call runs a fresh process and
 * answers with the payload of its first event, which must be a module event of the called module.
 */
final class EventLineRouter implements ModuleRouter {

    private final EventLineBoundary boundary;
    private final ModuleConfig module;
    private final StopLadder stopLadder;

    EventLineRouter(EventLineBoundary boundary, ModuleConfig module, StopLadder stopLadder) {
        this.boundary = Objects.requireNonNull(boundary, "boundary");
        this.module = Objects.requireNonNull(module, "module");
        this.stopLadder = Objects.requireNonNull(stopLadder, "stopLadder");
    }

    @Override
    public ModuleBoundaryKind kind() {
        return ModuleBoundaryKind.EVENT_LINE;
    }

    @Override
    public RestartPolicy startupPolicy() {
        return module.restartPolicy();
    }

    @Override
    public boolean restartable() {
        return module.restartPolicy() != RestartPolicy.NEVER;
    }

    /**
     * A start whose first event is not a module event of this module fails like a routed call would: the child is
     * stopped and the attempt fails with {@code Normalize(SourceMismatch("module:<id>", "module:<other>" | "agent"))}.
     */
    @Override
    public ModuleChild start(Duration timeout) throws InterruptedException {
        ModuleChild child = boundary.start(timeout);
        EventEnvelope<UnifiedEvent> first = child.firstEvent().orElseThrow();
        if (mismatch(module.id(), first) == null) {
            return child;
        }
        child.stop(stopLadder);
        String got = first.event() instanceof UnifiedEvent.Module other ? "module:" + other.event().module() : "agent";
        throw new BoundaryFailure(module.id(), new RuntimeBoundaryError.Normalize(
                new NormalizationError.SourceMismatch("module:" + module.id(), got)), OptionalInt.empty(),
                child.stderrTail(), null);
    }

    /** An exit with code 0 is a completed module, not a failure. */
    @Override
    public boolean isFailure(ChildExit exit) {
        return exit.exitCode().isEmpty() || exit.exitCode().getAsInt() != 0;
    }

    @Override
    public EventEnvelope<UnifiedEvent> readyEvent(ModuleChild child, RuntimeEvents events) {
        return child.firstEvent().orElseThrow();
    }

    @Override
    public InFlight<JsonNode> route(ModuleRouteRequest request, CallSpec call, ModuleSupervisor<ModuleChild> supervisor) {
        InFlight<EventEnvelope<UnifiedEvent>> run = boundary.run(call.timeout());
        return InFlight.of(run.result().thenApply(event -> payload(module.id(), event)), run::cancel, run.finished());
    }

    @Override
    public RuntimeBoundaryError cancelled(ModuleRouteRequest request) {
        return new RuntimeBoundaryError.Process(new ProcessBoundaryError.Cancelled());
    }

    /** The payload of {@code event} when it is a module event of {@code moduleId}; else the reason it is not. */
    static JsonNode payload(String moduleId, EventEnvelope<UnifiedEvent> event) {
        String mismatch = mismatch(moduleId, event);
        if (mismatch != null) {
            throw new ModuleRouteException(moduleId, new ModuleRouteError.UnexpectedRouteResponse(moduleId, mismatch));
        }
        return ((UnifiedEvent.Module) event.event()).event().payload();
    }

    /** Why {@code event} is not a module event of {@code moduleId}, or null when it is one. */
    static String mismatch(String moduleId, EventEnvelope<UnifiedEvent> event) {
        if (!(event.event() instanceof UnifiedEvent.Module)) {
            return "expected a module event of '" + moduleId + "', got an agent event '" + event.eventId() + "'";
        }
        ModuleEvent moduleEvent = ((UnifiedEvent.Module) event.event()).event();
        if (!moduleEvent.module().equals(moduleId)) {
            return "expected a module event of '" + moduleId + "', got one of '" + moduleEvent.module() + "'";
        }
        return null;
    }
}
