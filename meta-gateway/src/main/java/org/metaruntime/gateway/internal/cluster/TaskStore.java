package org.metaruntime.gateway.internal.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * Where the gateway's own tasks are kept: in memory for a single process ({@link MemoryTasks}), in the cluster's
 * database for replicas ({@link SharedTasks}), so that any replica answers {@code tasks/get}. A finished task is kept
 * for the store's time to live, then forgotten.
 */
public interface TaskStore {

    /** Records task {@code id} as working. */
    void start(String id);

    /**
     * Records the end of task {@code id} with {@code status} and its {@code result} or {@code error}; a task that
     * ended before keeps its first end. Returns whether this call ended it.
     */
    boolean finish(String id, String status, JsonNode result, JsonNode error);

    /** Task {@code id}, unless unknown or finished longer ago than the time to live. */
    Optional<TaskState> get(String id);

    /** Forgets the tasks finished longer ago than the time to live; returns how many. */
    int expire();
}
