package org.metaruntime.gateway;

/** Every scenario of {@link GatewaySessionIT} with the TypeScript SDK's StreamableHTTPClientTransport. */
class GatewayStreamableHttpIT extends GatewaySessionIT {

    @Override
    NodeClient.Transport transport() {
        return NodeClient.Transport.STREAMABLE_HTTP;
    }
}
