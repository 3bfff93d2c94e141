package org.metaruntime.core;

/**
 * When a module's process is started.
 *
 * <p>Immutable and thread-safe.
 */
public enum StartMode {
    /** At the runtime's startup (the default). */
    EAGER,
    /**
     * At the first call: the module is loaded at startup but not spawned; the first call runs its startup
     * (concurrent first calls share it). With {@code ModuleConfig.Builder.idleTimeout}, the child is stopped after
     * that long without a call in flight, and the next call starts it again.
     */
    LAZY
}
