package org.metaruntime.gateway.internal.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import org.metaruntime.gateway.OAuthOptions;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/**
 * The gateway's OAuth protected resource metadata (RFC 9728): where it is served, and the document.
 *
 * @param resource the resource URL: the {@code /mcp} URL clients use
 * @param options  the OAuth options
 */
public record ProtectedResource(URI resource, OAuthOptions options) {

    /** The paths the metadata is served at. */
    public static final String PATH = "/.well-known/oauth-protected-resource";
    public static final String MCP_PATH = PATH + "/mcp";

    /** {@code <origin of the resource URL>/.well-known/oauth-protected-resource/mcp}. */
    public String metadataUrl() {
        return resource.getScheme() + "://" + resource.getRawAuthority() + MCP_PATH;
    }

    /** The challenge of the 401 and 403 answers. */
    public Challenge challenge() {
        return new Challenge(metadataUrl(), options.requiredScopes());
    }

    /** The metadata document, as JSON. */
    public String document() {
        ObjectNode doc = JsonRpc.NODES.objectNode();
        doc.put("resource", resource.toString());
        doc.putArray("authorization_servers").add(options.issuer().toString());
        options.requiredScopes().forEach(doc.putArray("scopes_supported")::add);
        doc.putArray("bearer_methods_supported").add("header");
        doc.put("resource_name", "meta-gateway");
        return JsonRpc.write(doc);
    }
}
