package org.metaruntime.supervisor;

/**
 * When a module's process is started again. Serialised as {@code "never"}, {@code "on_failure"},
 * {@code "always"}. An enum: immutable and thread-safe.
 *
 * <pre>{@code
 * RestartPolicy policy = RestartPolicy.fromJsonName("on_failure");
 * }</pre>
 */
public enum RestartPolicy {
    /** Never restart: one attempt. */
    NEVER("never"),
    /** Retry a failed attempt, within the on-failure budget (the default). */
    ON_FAILURE("on_failure"),
    /** Restart after success and failure alike, within the always budget. */
    ALWAYS("always");

    private final String jsonName;

    RestartPolicy(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name used in JSON and configuration files. */
    public String jsonName() {
        return jsonName;
    }

    /**
     * The policy for a JSON name such as {@code "on_failure"}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static RestartPolicy fromJsonName(String name) {
        for (RestartPolicy policy : values()) {
            if (policy.jsonName.equals(name)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("unknown restart policy: " + name);
    }
}
