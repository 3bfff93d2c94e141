/**
 * The gateway: one MCP server for every pod (tool module) declared in manifests. {@link
 * org.metaruntime.gateway.MetaGateway} is the entry point; {@code bin/meta-gateway} runs it from the command line.
 */
package org.metaruntime.gateway;
