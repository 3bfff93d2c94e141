package org.metaruntime.gateway.internal.serve;

import org.metaruntime.gateway.GatewayOptions;
import org.metaruntime.gateway.internal.manifest.Catalog;

/** Creates the backend that runs a catalog's pods. */
public final class PodBackends {

    private PodBackends() {
    }

    public static PodBackend create(Catalog catalog, GatewayOptions options) {
        return new RuntimePodBackend(catalog, options);
    }
}
