package org.metaruntime.events;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * A stage of the runtime's life, carried by a {@link LifecycleEvent}. Serialised as {@code "MobStarted"}, ...
 * ({@link #jsonName()}). An enum: immutable and thread-safe.
 *
 * <pre>{@code
 * LifecycleStage stage = LifecycleStage.fromJsonName("ShutdownComplete");
 * }</pre>
 */
public enum LifecycleStage {
    /** Runtime bootstrap began. */
    MOB_STARTED("MobStarted"),
    /** All configured module startup attempts completed (not proof that every module is healthy). */
    MODULES_STARTED("ModulesStarted"),
    /** The initial agent and module envelopes were merged. */
    MERGED_STREAM_STARTED("MergedStreamStarted"),
    /** Runtime shutdown began. */
    SHUTDOWN_REQUESTED("ShutdownRequested"),
    /** Runtime shutdown completed. */
    SHUTDOWN_COMPLETE("ShutdownComplete");

    private final String jsonName;

    LifecycleStage(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name used in JSON and in logs. */
    @JsonValue
    public String jsonName() {
        return jsonName;
    }

    /**
     * The stage for a JSON name such as {@code "MobStarted"}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    @JsonCreator
    public static LifecycleStage fromJsonName(String name) {
        Objects.requireNonNull(name, "name");
        for (LifecycleStage stage : values()) {
            if (stage.jsonName.equals(name)) {
                return stage;
            }
        }
        throw new IllegalArgumentException("unknown lifecycle stage: " + name);
    }
}
