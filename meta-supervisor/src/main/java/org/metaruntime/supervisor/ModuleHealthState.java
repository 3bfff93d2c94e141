package org.metaruntime.supervisor;

/** The health of a module. Serialised as {@code "Starting"}, {@code "Healthy"}, ... ({@link #jsonName()}). */
public enum ModuleHealthState {
    STARTING("Starting"),
    HEALTHY("Healthy"),
    FAILED("Failed"),
    RESTARTING("Restarting"),
    STOPPED("Stopped");

    private final String jsonName;

    ModuleHealthState(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name used in JSON and in logs. */
    public String jsonName() {
        return jsonName;
    }

    /** The state for a JSON name such as {@code "Healthy"}. */
    public static ModuleHealthState fromJsonName(String name) {
        for (ModuleHealthState state : values()) {
            if (state.jsonName.equals(name)) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown health state: " + name);
    }
}
