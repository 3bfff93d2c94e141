package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.RuntimeShutdownReport;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops every module of a runtime: each module is marked shut down (no new call starts), the stop of every kept child
 * is started at once (the stop ladders run side by side on the process layer's timer, no thread per module), then
 * each supervisor is closed, all on the calling thread. Waits until every stop has ended, bounded by the graces, and
 * counts the processes that survived their ladder.
 */
public final class ShutdownSequence {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownSequence.class);

    private ShutdownSequence() {
    }

    /**
     * Stops the modules of {@code registry}; returns the report (terminated modules sorted). Calls in flight are
     * cancelled first, which stops the processes they own (an event-line call's tree, a {@code PER_CALL} server),
     * bounded by the stop ladder.
     */
    public static RuntimeShutdownReport run(ModuleRegistry registry, RuntimeOptions options, CallRouter calls) {
        Map<ModuleSlot, ModuleSlot.Membership> before = new LinkedHashMap<>();
        for (ModuleSlot slot : registry.all()) {
            before.put(slot, slot.shutDown());
        }
        int orphans = awaitCalls(calls.cancelAll(), options.stopLadder().total().plusSeconds(1));
        Map<ModuleSlot, CompletableFuture<Integer>> stops = new LinkedHashMap<>();
        for (Map.Entry<ModuleSlot, ModuleSlot.Membership> entry : before.entrySet()) {
            ModuleSupervisor<ModuleChild> supervisor = entry.getValue().supervisor();
            if (supervisor != null) {
                // Requested before the supervisor is closed: the exits it causes count as the runtime's, not as
                // failures, and every ladder runs from now on.
                supervisor.currentChild().ifPresent(child -> stops.put(entry.getKey(), stopAsync(entry.getKey(),
                        child, options)));
            }
        }
        List<String> terminated = new ArrayList<>();
        for (Map.Entry<ModuleSlot, ModuleSlot.Membership> entry : before.entrySet()) {
            ModuleSlot slot = entry.getKey();
            ModuleSupervisor<ModuleChild> supervisor = entry.getValue().supervisor();
            if (supervisor == null) {
                continue;
            }
            supervisor.close();   // stops its child, which is the stop started above, or one that began meanwhile
            CompletableFuture<Integer> stop = stops.get(slot);
            if (stop != null) {
                orphans += stop.join();
            }
            if (entry.getValue().phase() == ModuleSlot.Phase.LOADED || stop != null) {
                terminated.add(slot.id());
                LOG.info("module '{}': stopped", slot.id());
            }
        }
        return new RuntimeShutdownReport(terminated, orphans);
    }

    /** Starts the stop of {@code child}; a stop that fails to start counts as one process that may have survived. */
    private static CompletableFuture<Integer> stopAsync(ModuleSlot slot, ModuleChild child, RuntimeOptions options) {
        try {
            return child.stopAsync(options.stopLadderFor(slot.module())).exceptionally(failure -> {
                LOG.warn("module '{}': stopping its child failed", slot.id(), failure);
                return 1;
            });
        } catch (RuntimeException e) {
            LOG.warn("module '{}': stopping its child failed", slot.id(), e);
            return CompletableFuture.completedFuture(1);
        }
    }

    /**
     * Waits, at most {@code bound}, until every cancelled call has ended with what it owns (a per-call server, an
     * event-line tree); returns how many did not, each counted as a process that may have survived.
     */
    private static int awaitCalls(List<CompletableFuture<Void>> settled, Duration bound) {
        try {
            CompletableFuture.allOf(settled.toArray(new CompletableFuture<?>[0]))
                    .get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            LOG.warn("calls in flight did not end within {} of their cancel", bound);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return (int) settled.stream().filter(call -> !call.isDone()).count();
    }
}
