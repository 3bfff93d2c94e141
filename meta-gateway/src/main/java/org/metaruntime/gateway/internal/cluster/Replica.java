package org.metaruntime.gateway.internal.cluster;

import java.net.URI;

/**
 * One gateway replica of a cluster as the shared database lists it.
 *
 * @param id          the replica id, unique in the cluster
 * @param url         the base URL other replicas reach it on ({@code --advertise-url})
 * @param heartbeatMs when it last wrote its heartbeat, in the database's clock (epoch milliseconds)
 */
public record Replica(String id, URI url, long heartbeatMs) {
}
