package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.serve.PodBackend.CallContext;
import org.metaruntime.gateway.internal.serve.PodBackend.Pod;
import org.metaruntime.gateway.internal.serve.PodBackend.PodFailure;
import org.metaruntime.gateway.internal.serve.PodBackend.PodState;
import org.metaruntime.supervisor.InFlight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.metaruntime.supervisor.internal.Failures;

/**
 * One pod of a {@link PodSet} as one manifest declares it: its backend, made at its first use on the pod threads, and
 * its calls in flight. Once retired it takes no new work and stops when the work in flight has ended. Thread-safe.
 */
final class PodMember implements Pod {

    private static final Logger log = LoggerFactory.getLogger(PodMember.class);

    private final PodSet set;
    private final PodManifest manifest;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final CompletableFuture<Void> down = new CompletableFuture<>();
    private volatile boolean retiring;
    /** Held while its backend is made or a start is sent to it, and by a stop: a stop comes before or after. */
    private final Object making = new Object();
    private PodBackend backend;
    /** The making of its backend on the pod threads, shared by the starts, calls and requests waiting for it. */
    private CompletableFuture<Void> makingBackend;
    /** The pre-warm waiting for its backend to be made, to be started then; null when none is. */
    private CompletableFuture<Void> prewarm;
    /** Why its backend could not be made, until one is; null when it was, or was not tried. */
    private volatile PodFailure unmade;

    PodMember(PodSet set, PodManifest manifest) {
        this.set = set;
        this.manifest = manifest;
        set.register(manifest);
    }

    @Override
    public String name() {
        return manifest.name();
    }

    /**
     * Its backend, made now on this thread when it has none (only {@link #make} does that, on the pod threads);
     * fails with -32002 once it is stopped, and with the pod's failure to start when it cannot be made (kept for
     * {@link #state()}).
     */
    private PodBackend backend() {
        PodBackend b = served();
        if (b != null) {
            return b;
        }
        synchronized (making) {
            b = served();
            if (b != null) {
                return b;
            }
            PodBackend made;
            try {
                made = set.run(manifest);
            } catch (RuntimeException e) {
                PodFailure failure = PodErrors.startFailed(manifest, e);
                unmade = failure;
                log.debug("pod {}: its runtime could not be made", name(), e);
                throw failure;
            }
            made.listen(new Forwarding());
            made.servePodCalls(set.podCalls());
            synchronized (this) {
                backend = made;
            }
            unmade = null;
            return made;
        }
    }

    /** Its backend, null when it has none yet; fails with -32002 once it is stopped. */
    private synchronized PodBackend served() {
        if (stopped.get()) {
            throw new PodFailure(PodFailure.Kind.UNAVAILABLE, "pod " + name() + " was stopped by a reload",
                    OptionalInt.empty(), "");
        }
        return backend;
    }

    private synchronized PodBackend existing() {
        return backend;
    }

    private Pod pod() {
        return backend().pod(name());
    }

    /**
     * Completes once it has a backend, without blocking this thread: at once when it has one (or is stopped, which
     * its users then meet as -32002), else once one is made on the pod threads, a making that concurrent starts,
     * calls and requests share. Fails with -32002 when a stop comes before the backend is made, and with the pod's
     * failure to start when it cannot be made.
     */
    private CompletableFuture<Void> made() {
        CompletableFuture<Void> pending;
        synchronized (this) {
            if (backend != null || stopped.get()) {
                return CompletableFuture.completedFuture(null);
            }
            if (makingBackend != null) {
                return makingBackend;
            }
            makingBackend = new CompletableFuture<>();
            pending = makingBackend;
        }
        try {
            set.threads().tasks().execute(() -> make(pending));
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            abandon(new PodFailure(PodFailure.Kind.UNAVAILABLE, "the gateway is closing", OptionalInt.empty(), ""))
                    .run();
        }
        return pending;
    }

    /**
     * Makes its backend on this thread, sends it the start the pre-warms asked for meanwhile, and passes the
     * outcomes on (unless a stop failed them first).
     */
    private void make(CompletableFuture<Void> pending) {
        RuntimeException failure = null;
        CompletableFuture<Void> warm;
        CompletableFuture<Void> started = null;
        synchronized (making) { // a stop sees the making pending, or the backend made and its start sent
            try {
                backend();
            } catch (RuntimeException e) {
                failure = e;
            }
            synchronized (this) {
                if (makingBackend == pending) {
                    makingBackend = null;
                }
                warm = prewarm;
                prewarm = null;
            }
            if (warm != null && failure == null) {
                started = Failures.attempt(this::startNow);
            }
        }
        if (failure != null) {
            pending.completeExceptionally(failure);
            if (warm != null) {
                warm.completeExceptionally(failure);
            }
            return;
        }
        pending.complete(null);
        if (warm != null) {
            Completions.relay(started, warm);
        }
    }

    /**
     * Detaches the making of its backend under way and the pre-warm waiting for it, if any: the returned action
     * fails them with {@code why} (run outside the locks).
     */
    private Runnable abandon(PodFailure why) {
        CompletableFuture<Void> pending;
        CompletableFuture<Void> warm;
        synchronized (this) {
            pending = makingBackend;
            warm = prewarm;
            makingBackend = null;
            prewarm = null;
        }
        return () -> {
            if (pending != null) {
                pending.completeExceptionally(why);
            }
            if (warm != null) {
                warm.completeExceptionally(why);
            }
        };
    }

    @Override
    public boolean running() {
        PodBackend b = existing();
        return b != null && !stopped.get() && b.pod(name()).running();
    }

    /**
     * Starts it without blocking this thread: a pod without a backend yet has it made on the pod threads first
     * ({@link #made()}), as for its first call or request, and concurrent pre-warms share the one start sent to
     * it then. A stop before it is made fails the start with -32002.
     */
    @Override
    public CompletableFuture<Void> start() {
        CompletableFuture<Void> pending;
        synchronized (this) {
            if (backend != null || stopped.get()) {
                pending = null;
            } else {
                if (prewarm == null) {
                    prewarm = new CompletableFuture<>();
                }
                pending = prewarm;
            }
        }
        if (pending == null) {
            return set.redacted(Failures.attempt(this::startNow));
        }
        made();
        return set.redacted(pending);
    }

    /**
     * Starts it on its backend; the start itself goes on off this thread. A stop comes either before (the start
     * fails with -32002) or after it (the stop ends the start).
     */
    private CompletableFuture<Void> startNow() {
        synchronized (making) {
            return backend().pod(name()).start();
        }
    }

    @Override
    public List<ObjectNode> liveTools() {
        PodBackend b = existing();
        return b == null || stopped.get() ? List.of() : b.pod(name()).liveTools();
    }

    /**
     * Starts a call; the first call of a pod has its backend made on the pod threads ({@link #made()}), so that
     * the caller (a transport's reading thread) never waits for it.
     */
    @Override
    public InFlight<JsonNode> call(String tool, JsonNode arguments, CallContext context) {
        inFlight.incrementAndGet();
        InFlight<JsonNode> call;
        CompletableFuture<Void> ready = made();
        if (ready.isDone() && !ready.isCompletedExceptionally()) {
            try {
                call = pod().call(tool, arguments, context);
            } catch (RuntimeException e) {
                call = InFlight.failed(e);
            }
        } else {
            DeferredCall deferred = new DeferredCall();
            ready.whenComplete((ok, error) -> deferred.start(() -> error != null ? InFlight.failed(error)
                    : pod().call(tool, arguments, context)));
            call = deferred;
        }
        call.result().whenComplete((r, e) -> ended());
        return InFlight.of(set.redacted(call.result()), call::cancel, call.finished());
    }

    /**
     * Sends a request without blocking this thread: the first request of a pod has its backend made on the pod
     * threads ({@link #made()}), as for its first call.
     */
    @Override
    public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout) {
        inFlight.incrementAndGet();
        CompletableFuture<JsonNode> answer =
                Completions.after(made(), () -> pod().request(method, params, timeout));
        answer.whenComplete((r, e) -> ended());
        return set.redacted(answer);
    }

    @Override
    public boolean taskCapable() {
        PodBackend b = existing();
        return b != null && !stopped.get() && b.pod(name()).taskCapable();
    }

    @Override
    public boolean bare() {
        PodBackend b = existing();
        return b != null && b.pod(name()).bare();
    }

    @Override
    public String era() {
        PodBackend b = existing();
        return b == null ? null : b.pod(name()).era();
    }

    @Override
    public PodState state() {
        PodBackend b;
        boolean warming;
        synchronized (this) {
            b = backend;
            warming = makingBackend != null || prewarm != null;
        }
        PodFailure failed = unmade;
        if (b == null && failed != null && !stopped.get()) {
            return set.redaction().apply(new PodState("Failed", OptionalLong.empty(), 0, PodErrors.describe(failed),
                    failed.stderrTail()));
        }
        if (b == null) {
            String state = stopped.get() ? "Stopped" : warming ? "Starting" : "NotStarted";
            return new PodState(state, OptionalLong.empty(), 0, null, "");
        }
        return set.redaction().apply(b.pod(name()).state());
    }

    /** Takes no new work from now on; stops once the work in flight has ended. */
    void retire() {
        retiring = true;
        stopWhenIdle();
    }

    private void ended() {
        inFlight.decrementAndGet();
        stopWhenIdle();
    }

    private void stopWhenIdle() {
        if (retiring && inFlight.get() == 0 && !stopped.get()) {
            try {
                set.threads().io().execute(() -> {
                    stop();
                    set.stopped(this);
                });
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // the set is closing: its close stops this pod
            }
        }
    }

    /** Stops its backend (the stop ladder, bounded by the shutdown timeout); a second caller waits for the first. */
    void stop() {
        boolean first;
        PodBackend b;
        Runnable failWaiting;
        synchronized (making) {
            synchronized (this) {
                first = stopped.compareAndSet(false, true);
                b = backend;
            }
            failWaiting = abandon(new PodFailure(PodFailure.Kind.UNAVAILABLE, "pod " + name()
                    + " was stopped before it started", OptionalInt.empty(), ""));
        }
        failWaiting.run();
        if (!first) {
            down.join();
            return;
        }
        try {
            if (b != null) {
                if (retiring) {
                    log.info("pod {}: a reload retired it and its calls have ended: stopping it", name());
                }
                b.close();
            }
        } catch (RuntimeException e) {
            log.warn("pod {}: stopping it failed: {}", name(), e.toString());
        } finally {
            down.complete(null);
        }
    }

    /** What its backend hears, passed on while it is served; its log lines always. */
    private final class Forwarding implements PodListener {
        private boolean current() {
            return set.current(PodMember.this);
        }

        @Override
        public void toolsChanged(String pod) {
            PodListener l = set.listener();
            if (l != null && current()) {
                l.toolsChanged(pod);
            }
        }

        @Override
        public void listChanged(String pod, String notificationMethod) {
            PodListener l = set.listener();
            if (l != null && current()) {
                l.listChanged(pod, notificationMethod);
            }
        }

        @Override
        public void log(String pod, JsonNode params, String callId) {
            PodListener l = set.listener();
            if (l != null) {
                l.log(pod, params, callId);
            }
        }

        @Override
        public void stateChanged(String pod) {
            PodListener l = set.listener();
            if (l != null && current()) {
                l.stateChanged(pod);
            }
        }
    }
}
