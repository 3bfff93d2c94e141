/** Internals of the gateway (manifest); not covered by compatibility. */
package org.metaruntime.gateway.internal.manifest;
