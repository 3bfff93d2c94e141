/** Internals of the gateway (cli); not covered by compatibility. */
package org.metaruntime.gateway.internal.cli;
