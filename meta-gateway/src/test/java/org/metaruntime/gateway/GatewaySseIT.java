package org.metaruntime.gateway;

/** Every scenario of {@link GatewaySessionIT} with the TypeScript SDK's SSEClientTransport (HTTP+SSE, 2024-11-05). */
class GatewaySseIT extends GatewaySessionIT {

    @Override
    NodeClient.Transport transport() {
        return NodeClient.Transport.SSE;
    }
}
