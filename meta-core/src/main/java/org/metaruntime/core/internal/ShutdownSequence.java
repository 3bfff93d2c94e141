package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.RuntimeShutdownReport;
import org.metaruntime.supervisor.ModuleSupervisor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops every module of a runtime: each module is marked shut down (no new call starts), its supervisor is closed
 * and its kept child stopped with the stop ladder, all modules in parallel, bounded by the graces. Counts the
 * processes that survived their ladder.
 */
public final class ShutdownSequence {

    private static final Logger LOG = LoggerFactory.getLogger("org.metaruntime.core.UnifiedRuntime");

    private ShutdownSequence() {
    }

    /**
     * Stops the modules of {@code registry}; returns the report (terminated modules sorted). Calls in flight are
     * cancelled first, which stops the processes they own (an event-line call's tree, a {@code PER_CALL} server),
     * bounded by the stop ladder.
     */
    public static RuntimeShutdownReport run(ModuleRegistry registry, RuntimeOptions options, CallRouter calls) {
        List<String> terminated = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger orphans = new AtomicInteger();
        List<Thread> stoppers = new ArrayList<>();
        Map<ModuleSlot, ModuleSlot.Membership> before = new LinkedHashMap<>();
        for (ModuleSlot slot : registry.all()) {
            before.put(slot, slot.shutDown());
        }
        orphans.addAndGet(awaitCalls(calls.cancelAll(), options.stopLadder().total().plusSeconds(1)));
        for (Map.Entry<ModuleSlot, ModuleSlot.Membership> entry : before.entrySet()) {
            ModuleSlot slot = entry.getKey();
            ModuleSupervisor<ModuleChild> supervisor = entry.getValue().supervisor();
            if (supervisor == null) {
                continue;
            }
            boolean wasLoaded = entry.getValue().phase() == ModuleSlot.Phase.LOADED;
            Optional<ModuleChild> child = supervisor.currentChild();
            Thread stopper = new Thread(() -> {
                supervisor.close();
                child.ifPresent(c -> orphans.addAndGet(c.stop(options.stopLadderFor(slot.module()))));
                if (wasLoaded || child.isPresent()) {
                    terminated.add(slot.id());
                    LOG.info("module '{}': stopped", slot.id());
                }
            }, "meta-core-stop-" + slot.id());
            stopper.setDaemon(true);
            stopper.start();
            stoppers.add(stopper);
        }
        for (Thread stopper : stoppers) {
            joinUninterruptibly(stopper);
        }
        return new RuntimeShutdownReport(terminated, orphans.get());
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

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
