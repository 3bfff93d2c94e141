/** The side-by-side comparison of the MCP boundary with the MCP Java and TypeScript SDK clients and a raw pipe. */
package org.metaruntime.benchmarks.mcp;
