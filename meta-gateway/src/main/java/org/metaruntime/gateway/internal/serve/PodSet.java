package org.metaruntime.gateway.internal.serve;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.metaruntime.gateway.internal.manifest.PodManifest;

/**
 * The pods the gateway serves now, each run by a backend of its own (made at its first use), so that one pod can
 * be added, stopped or replaced while the others keep running: {@link #apply(PodChanges)} adds the new pods, and
 * retires the removed and the changed ones. A retired pod takes no new call (they go to a changed pod's new run,
 * or fail as for a pod that is not served) and is stopped once its calls and requests in flight have ended. The
 * pods share {@link PodThreads}, released when the last one has stopped. Thread-safe.
 */
public final class PodSet implements PodBackend {

    private final Runner runner;
    /** The variables read by the headers of every pod served so far (grows with reloads). */
    private final Set<String> headerVariables = ConcurrentHashMap.newKeySet();
    /** The secrets of every pod served so far (env and headers values) and the gateway's credentials. */
    private final Set<String> secrets = ConcurrentHashMap.newKeySet();
    private volatile Redaction redaction = Redaction.NONE;
    private final PodThreads threads = new PodThreads();
    private final Map<String, PodMember> members = new ConcurrentHashMap<>();
    private final Set<PodMember> retired = ConcurrentHashMap.newKeySet();
    private final Object lock = new Object();
    private volatile PodListener listener;
    private volatile PodCallHandler podCalls;
    private boolean closed;

    /**
     * @param pods   the pods served at first
     * @param runner makes the backend that runs one pod (with the shared threads)
     */
    PodSet(List<PodManifest> pods, Runner runner) {
        this(pods, runner, List.of());
    }

    /** @param credentials the gateway's own credentials, hidden like the pods' secrets in what pods' failures relay */
    PodSet(List<PodManifest> pods, Runner runner, java.util.Collection<String> credentials) {
        this.runner = runner;
        secrets.addAll(credentials);
        redaction = Redaction.of(secrets);
        for (PodManifest pod : pods) {
            members.put(pod.name(), new PodMember(this, pod));
        }
    }

    /** {@code future}, its failure redacted when it is a pod's. */
    <T> CompletableFuture<T> redacted(CompletableFuture<T> future) {
        CompletableFuture<T> out = new CompletableFuture<>();
        future.whenComplete((value, error) -> {
            if (error == null) {
                out.complete(value);
            } else {
                out.completeExceptionally(redaction.apply(error));
            }
        });
        return out;
    }

    /** Makes the backend that runs one pod. */
    @FunctionalInterface
    interface Runner {
        /**
         * @param threads  the threads the pods share
         * @param withheld the gateway's environment variables that the headers of the pods served so far read (the
         *                 credentials of remote servers): a local pod inherits none of them
         */
        PodBackend run(PodManifest pod, PodThreads threads, Set<String> withheld);
    }

    /** The scheduler the pods share (the gateway's timer): its tasks must be short and never block. */
    public org.metaruntime.supervisor.Scheduler scheduler() {
        return threads.scheduler();
    }

    @Override
    public Pod pod(String name) {
        PodMember member = members.get(name);
        return member != null ? member : new AbsentPod(name);
    }

    @Override
    public void listen(PodListener listener) {
        this.listener = listener;
    }

    @Override
    public void servePodCalls(PodCallHandler handler) {
        this.podCalls = handler;
    }

    /** Serves the changed set: adds the new pods and the changed pods' new runs, retires the removed and changed ones. */
    void apply(PodChanges changes) {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the gateway is closed");
            }
            for (String name : changes.removed()) {
                retire(members.remove(name));
            }
            for (PodManifest pod : changes.started()) {
                retire(members.put(pod.name(), new PodMember(this, pod)));
            }
        }
    }

    private void retire(PodMember member) {
        if (member != null) {
            retired.add(member);
            member.retire();
        }
    }

    /** Stops every pod, retired ones included, in parallel (each bounded by its shutdown timeout). Idempotent. */
    @Override
    public void close() {
        List<PodMember> all;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            all = new ArrayList<>(members.values());
            all.addAll(retired);
        }
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (PodMember member : all) {
            stops.add(CompletableFuture.runAsync(member::stop, threads.io()));
        }
        try {
            CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)).join();
        } finally {
            threads.close();
        }
    }

    /** Registers a pod's header variables and secrets (its failures and stderr are then redacted of them). */
    void register(PodManifest manifest) {
        headerVariables.addAll(manifest.headerVariables());
        if (secrets.addAll(Redaction.secretsOf(manifest))) {
            redaction = Redaction.of(secrets);
        }
        RedactedStderr.hide(secrets);
    }

    /** Makes the backend that runs {@code manifest}, on the shared threads, withholding the header variables. */
    PodBackend run(PodManifest manifest) {
        return runner.run(manifest, threads, Set.copyOf(headerVariables));
    }

    PodThreads threads() {
        return threads;
    }

    Redaction redaction() {
        return redaction;
    }

    PodListener listener() {
        return listener;
    }

    PodCallHandler podCalls() {
        return podCalls;
    }

    /** Whether {@code member} is the one served under its name (not retired). */
    boolean current(PodMember member) {
        return members.get(member.name()) == member;
    }

    /** A retired member has stopped. */
    void stopped(PodMember member) {
        retired.remove(member);
    }
}
