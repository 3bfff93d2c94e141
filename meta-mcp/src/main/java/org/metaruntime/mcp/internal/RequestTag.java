package org.metaruntime.mcp.internal;

/**
 * Learns the JSON-RPC id the SDK session gave a request. Put into the Reactor context of a
 * {@code sendRequest} subscription; {@link ProcessClientTransport} fills it in just before the request is written.
 */
public interface RequestTag {

    /** Called once, on the sending thread, before the request is written. */
    void requestId(Object id);
}
