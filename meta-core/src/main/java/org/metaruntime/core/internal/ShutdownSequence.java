package org.metaruntime.core.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
        awaitCalls(calls.cancelAll(), options.stopLadder().total().plusSeconds(1));
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

    private static void awaitCalls(java.util.concurrent.CompletableFuture<Void> settled, java.time.Duration bound) {
        try {
            settled.get(bound.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            LOG.warn("calls in flight did not end within {} of their cancel", bound);
        } catch (java.util.concurrent.ExecutionException e) {
            LOG.debug("a cancelled call ended with {}", e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
