package org.metaruntime.gateway.spi;

/**
 * Hears of every call the gateway answered, client or nested, once its answer was sent, whether or not an event
 * log is configured. Must not block; a listener that throws is logged and affects neither the call nor other
 * listeners.
 */
@FunctionalInterface
public interface CallListener {

    /** One call, answered. */
    void onCall(CallRecord record);
}
