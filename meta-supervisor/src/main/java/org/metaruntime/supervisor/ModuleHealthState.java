package org.metaruntime.supervisor;

/**
 * The health of a module. Serialised as {@code "Starting"}, {@code "Healthy"}, ... ({@link #jsonName()}). The
 * legal moves between states are one table inside the runtime's health engine. An enum: immutable and thread-safe.
 *
 * <pre>{@code
 * boolean up = runtime.supervisorReport().get("search").state() == ModuleHealthState.HEALTHY;
 * }</pre>
 */
public enum ModuleHealthState {
    /** A startup block began; the first attempt is running. */
    STARTING("Starting"),
    /** An attempt proved the child healthy, and the child is kept. */
    HEALTHY("Healthy"),
    /** An attempt failed, or the kept child failed after startup. */
    FAILED("Failed"),
    /** A retry or restart is scheduled or running. */
    RESTARTING("Restarting"),
    /** The module has no child and none is coming: budget exhausted, startup interrupted, or stopped. */
    STOPPED("Stopped");

    private final String jsonName;

    ModuleHealthState(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name used in JSON and in logs. */
    public String jsonName() {
        return jsonName;
    }

    /**
     * The state for a JSON name such as {@code "Healthy"}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static ModuleHealthState fromJsonName(String name) {
        for (ModuleHealthState state : values()) {
            if (state.jsonName.equals(name)) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown health state: " + name);
    }
}
