package org.metaruntime.gateway.internal.rpc;

import java.util.Locale;
import java.util.Optional;

/** MCP's logging levels (RFC 5424 severities), least severe first. */
public enum LogLevel {
    DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY;

    /** The wire name. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The level of a wire name, or empty. */
    public static Optional<LogLevel> of(String wire) {
        for (LogLevel level : values()) {
            if (level.wire().equals(wire)) {
                return Optional.of(level);
            }
        }
        return Optional.empty();
    }
}
