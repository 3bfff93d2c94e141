package org.metaruntime.mcp;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What this JVM logs while it is open (the tests' SLF4J binding writes to {@code System.err}): the number of bytes
 * and lines, and the first lines that contain a marker, at most {@code keep} of them, so that a flood costs the test
 * a bounded amount of memory. Close it to restore {@code System.err}. Thread-safe.
 */
final class CapturedLog implements AutoCloseable {

    private final PrintStream original = System.err;
    private final String marker;
    private final int keep;
    private final List<String> kept = new ArrayList<>();
    private final StringBuilder line = new StringBuilder();
    private long bytes;
    private long markedLines;

    /** Starts capturing; lines containing {@code marker} are counted and the first {@code keep} of them kept. */
    CapturedLog(String marker, int keep) {
        this.marker = marker;
        this.keep = keep;
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                append(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                append(b, off, len);
            }
        }, true, StandardCharsets.UTF_8));
    }

    private synchronized void append(byte[] b, int off, int len) {
        bytes += len;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                String text = line.toString();
                if (text.contains(marker)) {
                    markedLines++;
                    if (kept.size() < keep) {
                        kept.add(text);
                    }
                }
                line.setLength(0);
            } else if (line.length() < 64 * 1024) {
                line.append((char) (b[i] & 0xff));
            }
        }
    }

    /** Bytes written to the log so far. */
    synchronized long bytes() {
        return bytes;
    }

    /** Lines containing the marker so far. */
    synchronized long markedLines() {
        return markedLines;
    }

    /** The first lines containing the marker (bytes read as Latin-1). */
    synchronized List<String> kept() {
        return List.copyOf(kept);
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
