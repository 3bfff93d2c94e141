package org.metaruntime.gateway.internal.serve;

import java.util.Collection;
import java.util.List;
import org.metaruntime.gateway.GatewayOptions;
import org.metaruntime.gateway.internal.manifest.Catalog;

/** Creates the pods of a catalog: each run by a runtime of its own, so that a reload can add, stop or replace one. */
public final class PodBackends {

    private PodBackends() {
    }

    /**
     * @param credentials the gateway's own credentials (its bearer token): no pod inherits an environment variable
     *                    holding one, nor any variable named {@code META_GATEWAY_*}, nor any variable that a remote
     *                    pod's headers read
     */
    public static PodSet create(Catalog catalog, GatewayOptions options, Collection<String> credentials) {
        List<String> secrets = List.copyOf(credentials);
        return new PodSet(catalog.pods(), (pod, threads, withheld) -> new RuntimePodBackend(
                new Catalog(List.of(pod), List.of(), catalog.separator()), options, secrets, withheld, threads), secrets);
    }
}
