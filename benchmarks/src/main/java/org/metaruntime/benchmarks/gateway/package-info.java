/** The gateway against a direct MCP connection, with the same TypeScript SDK client and server. */
package org.metaruntime.benchmarks.gateway;
