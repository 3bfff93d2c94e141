/** Who makes an HTTP request: the single token, named tokens, OAuth 2.1 access tokens, and the chain that asks them. */
package org.metaruntime.gateway.internal.auth;
