/** Internals of the gateway (tool contracts: canonical JSON, schema hashes, version ranges); not covered by compatibility. */
package org.metaruntime.gateway.internal.contract;
