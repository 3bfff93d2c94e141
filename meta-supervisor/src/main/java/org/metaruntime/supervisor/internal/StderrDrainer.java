package org.metaruntime.supervisor.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains a child's stderr from the first moment to end of file: every byte goes into the {@link StderrTail},
 * and each line is logged at DEBUG through the logger {@code org.metaruntime.supervisor.stderr} as
 * {@code [moduleId] line} (a module's stderr is its own business; its tail goes into errors and warnings). A logged line is cut at {@link #MAX_LOGGED_LINE_BYTES} bytes (the rest of that line
 * is skipped and the cut is marked), so a child flooding stderr costs a bounded amount of memory.
 * Runs on one thread; {@link #done()} completes when the pipe is closed.
 */
public final class StderrDrainer implements Runnable {

    /** The longest part of a stderr line that is logged. */
    public static final int MAX_LOGGED_LINE_BYTES = 8 * 1024;

    private static final Logger STDERR_LOG = LoggerFactory.getLogger("org.metaruntime.supervisor.stderr");
    private static final Logger LOG = LoggerFactory.getLogger(StderrDrainer.class);

    private final String moduleId;
    private final InputStream stderr;
    private final StderrTail tail;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    /** The line being logged; null between lines, so an idle child's drainer holds nothing. */
    private byte[] line;
    private int lineLength;
    private boolean skipping;

    public StderrDrainer(String moduleId, InputStream stderr, StderrTail tail) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.stderr = Objects.requireNonNull(stderr, "stderr");
        this.tail = Objects.requireNonNull(tail, "tail");
    }

    /** Completes when stderr reached end of file (or failed) and the drainer ended. */
    public CompletableFuture<Void> done() {
        return done;
    }

    @Override
    public void run() {
        try (InputStream in = stderr) {
            PipeReads.readToEnd(in, (bytes, count) -> {
                tail.append(bytes, 0, count);
                frame(bytes, count);
                if (lineLength == 0) {
                    line = null;
                }
            });
            if (lineLength > 0) {
                log(false);
            }
        } catch (IOException e) {
            LOG.debug("module '{}': reading stderr failed: {}", moduleId, e.toString());
        } finally {
            done.complete(null);
        }
    }

    private void frame(byte[] bytes, int count) {
        for (int i = 0; i < count; i++) {
            byte b = bytes[i];
            if (b == '\n') {
                if (!skipping) {
                    log(false);
                }
                skipping = false;
                lineLength = 0;
            } else if (!skipping) {
                if (lineLength == MAX_LOGGED_LINE_BYTES) {
                    log(true);
                    skipping = true;
                    lineLength = 0;
                } else {
                    if (line == null || lineLength == line.length) {
                        line = Arrays.copyOf(line == null ? new byte[0] : line,
                                Math.min(MAX_LOGGED_LINE_BYTES, Math.max(256, 2 * lineLength)));
                    }
                    line[lineLength++] = b;
                }
            }
        }
    }

    private void log(boolean cut) {
        int end = lineLength;
        if (end > 0 && line[end - 1] == '\r') {
            end--;
        }
        if (STDERR_LOG.isDebugEnabled()) {
            String text = end == 0 ? "" : new String(line, 0, end, StandardCharsets.UTF_8);
            STDERR_LOG.debug("[{}] {}{}", moduleId, text, cut ? " [line cut at " + MAX_LOGGED_LINE_BYTES + " bytes]" : "");
        }
        lineLength = 0;
    }
}
