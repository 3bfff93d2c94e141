package org.metaruntime.gateway.internal.cluster;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A legacy HTTP session as the shared database keeps it, so that any replica serves it.
 *
 * @param id              the {@code Mcp-Session-Id}
 * @param protocolVersion the revision agreed at {@code initialize}
 * @param capabilities    the client's capabilities of {@code initialize}
 * @param clientInfo      the client's {@code clientInfo} of {@code initialize}
 * @param logLevel        the log level it set (wire name)
 * @param principalName   the name of the principal that opened it
 * @param principalAuth   how that principal was established
 * @param createdMs       when it was opened, database clock, epoch milliseconds (0 when not yet written)
 * @param lastUsedMs      when a request of it last reached a replica, database clock, epoch milliseconds
 */
public record SessionRecord(String id, String protocolVersion, JsonNode capabilities, JsonNode clientInfo, String logLevel,
                            String principalName, String principalAuth, long createdMs, long lastUsedMs) {
}
