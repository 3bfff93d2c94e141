/** Internals of the gateway; not covered by compatibility. */
package org.metaruntime.gateway.internal;
