package org.metaruntime.gateway;

/** Every pod-to-pod scenario of {@link PodToPodIT} with the outer call made over Streamable HTTP. */
class PodToPodHttpIT extends PodToPodIT {

    @Override
    NodeClient.Transport transport() {
        return NodeClient.Transport.STREAMABLE_HTTP;
    }
}
