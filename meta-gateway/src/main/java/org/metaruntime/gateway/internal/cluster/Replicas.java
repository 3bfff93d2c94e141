package org.metaruntime.gateway.internal.cluster;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * The replicas of the cluster this gateway belongs to, as this replica sees them: itself and the live others (a
 * replica whose heartbeat is older than the gone-after limit is not listed). A gateway without a shared database is a
 * cluster of one ({@link #single}). Thread-safe.
 */
public interface Replicas {

    /** This replica's id. */
    String self();

    /** The URL a live replica is reached on; empty when it is unknown or gone. */
    Optional<URI> urlOf(String replicaId);

    /** Every live replica of a cluster, this one included, in id order; empty for a single process. */
    List<Replica> live();

    /** A single process: it is the only replica and knows no other. */
    static Replicas single(String id) {
        return new Replicas() {
            @Override
            public String self() {
                return id;
            }

            @Override
            public Optional<URI> urlOf(String replicaId) {
                return Optional.empty();
            }

            @Override
            public List<Replica> live() {
                return List.of();
            }
        };
    }
}
