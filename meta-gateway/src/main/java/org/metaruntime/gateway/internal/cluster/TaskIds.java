package org.metaruntime.gateway.internal.cluster;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The task ids of a cluster: {@code <replica>:<pod>+<the pod's task id>}, naming the replica whose pod runs the task
 * so that {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel} reaching another replica are forwarded to
 * it. A single process's task ids have no replica part.
 */
public final class TaskIds {

    private static final Pattern OWNED = Pattern.compile("(r-[0-9a-f]{12}):(.+)", Pattern.DOTALL);

    /** How the ids of the gateway's own tasks ({@code --task-after}) start, after the replica part. */
    public static final String GATEWAY_PREFIX = "task-";

    private TaskIds() {
    }

    /** {@code taskId} owned by {@code replica} (null: a single process, unchanged). */
    public static String owned(String replica, String taskId) {
        return replica == null ? taskId : replica + ":" + taskId;
    }

    /** The replica named by {@code taskId}; empty when it names none. */
    public static Optional<String> owner(String taskId) {
        Matcher m = taskId == null ? null : OWNED.matcher(taskId);
        return m != null && m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** Whether {@code taskId} names one of the gateway's own tasks rather than a pod's. */
    public static boolean gatewayMade(String taskId) {
        return taskId != null && local(taskId).startsWith(GATEWAY_PREFIX);
    }

    /** {@code taskId} without its replica part. */
    public static String local(String taskId) {
        Matcher m = taskId == null ? null : OWNED.matcher(taskId);
        return m != null && m.matches() ? m.group(2) : taskId;
    }
}
