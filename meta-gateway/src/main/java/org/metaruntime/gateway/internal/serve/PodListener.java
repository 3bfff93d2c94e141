package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;

/** What pods do on their own, as the gateway hears of it. Called on the runtime's threads: fast, never throws. */
public interface PodListener {

    /** A pod's live tool list changed (it started, or it sent {@code notifications/tools/list_changed}). */
    void toolsChanged(String pod);

    /** A pod's resource or prompt list changed. */
    void listChanged(String pod, String notificationMethod);

    /** A pod sent {@code notifications/message}. */
    void log(String pod, JsonNode params);

    /** A pod's state changed (started, crashed, restarting, stopped). */
    void stateChanged(String pod);
}
