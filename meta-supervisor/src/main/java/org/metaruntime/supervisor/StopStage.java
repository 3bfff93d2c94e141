package org.metaruntime.supervisor;

/**
 * How far the stop ladder had to go before the module's process (not its descendants) was gone; reported in
 * {@link StopReport}. An enum: immutable and thread-safe.
 */
public enum StopStage {
    /** The process had already exited when the stop began. */
    ALREADY_EXITED,
    /** The process exited during the stdin grace, after its stdin was closed. */
    EXITED_AFTER_STDIN_CLOSE,
    /** The process exited during the term grace, after SIGTERM. */
    EXITED_AFTER_SIGTERM,
    /** The process had to be sent SIGKILL. */
    KILLED
}
