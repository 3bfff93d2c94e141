/** Test peers: MCP servers the tests run as child processes. */
package org.metaruntime.mcp.testpeers;
