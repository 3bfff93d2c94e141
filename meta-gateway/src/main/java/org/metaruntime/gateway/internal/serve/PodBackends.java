package org.metaruntime.gateway.internal.serve;

import java.util.Collection;
import org.metaruntime.gateway.GatewayOptions;
import org.metaruntime.gateway.internal.manifest.Catalog;

/** Creates the backend that runs a catalog's pods. */
public final class PodBackends {

    private PodBackends() {
    }

    /**
     * @param credentials the gateway's own credentials (its bearer token): no pod inherits an environment variable
     *                    holding one, nor any variable named {@code META_GATEWAY_*}
     */
    public static PodBackend create(Catalog catalog, GatewayOptions options, Collection<String> credentials) {
        return new RuntimePodBackend(catalog, options, credentials);
    }
}
