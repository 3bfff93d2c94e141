/**
 * The extension points of the gateway's call pipeline: an {@link org.metaruntime.gateway.spi.Authenticator} says
 * who makes an HTTP request, a {@link org.metaruntime.gateway.spi.CallListener} hears of every call once it was
 * answered.
 */
package org.metaruntime.gateway.spi;
