package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;

/** What pods do on their own, as the gateway hears of it. Called on the runtime's threads: fast, never throws. */
public interface PodListener {

    /** A pod's live tool list changed (it started, or it sent {@code notifications/tools/list_changed}). */
    void toolsChanged(String pod);

    /** A pod's resource or prompt list changed. */
    void listChanged(String pod, String notificationMethod);

    /**
     * A pod sent {@code notifications/message}.
     *
     * @param callId the gateway's id of the pod's call in flight the line is attributed to (named by its
     *               {@code _meta["mcp-meta/call"]}, else the pod's only call in flight, else its oldest), or null
     */
    void log(String pod, JsonNode params, String callId);

    /** A pod's state changed (started, crashed, restarting, stopped). */
    void stateChanged(String pod);
}
