package org.metaruntime.gateway.internal.manifest;

import java.util.Locale;
import java.util.Optional;

/** What the gateway does when a tool's live definition no longer matches its pin ({@code onDrift}). */
public enum OnDrift {
    /** The tool is not served: it leaves {@code tools/list} and a call to it is answered -31002. */
    BLOCK,
    /** The tool is served; a warning goes to the log. */
    WARN;

    /** Its name in manifests and events: {@code block} or {@code warn}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The action named {@code text}; empty when it is neither {@code block} nor {@code warn}. */
    public static Optional<OnDrift> of(String text) {
        return switch (text) {
            case "block" -> Optional.of(BLOCK);
            case "warn" -> Optional.of(WARN);
            default -> Optional.empty();
        };
    }
}
