package org.metaruntime.core.internal;

/** Small text helpers for messages. */
public final class Texts {

    private Texts() {
    }

    /** {@code text} on one line (line breaks become spaces), trimmed, at most {@code max} characters from its end. */
    public static String oneLine(String text, int max) {
        String flat = text.strip().replaceAll("\\s*[\\r\\n]+\\s*", " | ");
        return flat.length() <= max ? flat : "..." + flat.substring(flat.length() - max);
    }

    /** {@code message} followed by the exit code and stderr tail of the process, when the message lacks them. */
    public static String withProcessDetail(String message, java.util.OptionalInt exitCode, String stderrTail) {
        StringBuilder text = new StringBuilder(message);
        if (exitCode.isPresent() && !message.contains("code " + exitCode.getAsInt())) {
            text.append(" (exit code ").append(exitCode.getAsInt()).append(')');
        }
        if (stderrTail != null && !stderrTail.isBlank() && !message.contains(stderrTail.strip())) {
            text.append(" (stderr: ").append(oneLine(stderrTail, 500)).append(')');
        }
        return text.toString();
    }
}
