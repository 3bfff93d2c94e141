/** Internals of the gateway (rpc); not covered by compatibility. */
package org.metaruntime.gateway.internal.rpc;
