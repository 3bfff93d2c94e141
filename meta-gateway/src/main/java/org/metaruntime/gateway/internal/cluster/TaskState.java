package org.metaruntime.gateway.internal.cluster;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The state of a task the gateway made of a client's long {@code tools/call}: {@code working} while the call runs,
 * then {@code completed} with its {@code result}, {@code failed} with its JSON-RPC {@code error}, or
 * {@code cancelled}.
 *
 * @param id     the task id without its replica part
 * @param status {@code working}, {@code completed}, {@code failed} or {@code cancelled}
 * @param result the call's result once completed, else null
 * @param error  the call's JSON-RPC error object once failed, else null
 */
public record TaskState(String id, String status, JsonNode result, JsonNode error) {

    /** The status of a task whose call still runs. */
    public static final String WORKING = "working";

    /** Whether its call ended. */
    public boolean finished() {
        return !WORKING.equals(status);
    }
}
