package org.metaruntime.gateway.internal.pin;

import java.util.Objects;

/** A tool of a pod, by the pod's own name of it. */
public record PinKey(String pod, String tool) {
    public PinKey {
        Objects.requireNonNull(pod, "pod");
        Objects.requireNonNull(tool, "tool");
    }
}
