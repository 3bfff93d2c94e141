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
}
