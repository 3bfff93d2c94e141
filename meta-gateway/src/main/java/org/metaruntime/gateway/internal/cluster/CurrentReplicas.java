package org.metaruntime.gateway.internal.cluster;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/** The replicas as this gateway knows them now: a single process until it joins a cluster. Thread-safe. */
public final class CurrentReplicas implements Replicas {

    private volatile Replicas current;

    public CurrentReplicas(Replicas first) {
        this.current = first;
    }

    /** From now on the replicas are {@code now}'s (the gateway joined a cluster). */
    public void set(Replicas now) {
        current = now;
    }

    @Override
    public String self() {
        return current.self();
    }

    @Override
    public Optional<URI> urlOf(String replicaId) {
        return current.urlOf(replicaId);
    }

    @Override
    public List<Replica> live() {
        return current.live();
    }
}
