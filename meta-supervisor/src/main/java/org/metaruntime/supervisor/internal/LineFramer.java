package org.metaruntime.supervisor.internal;

import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Frames a byte stream into lines on {@code \n}, with a size limit, and decodes each complete line as UTF-8.
 *
 * <ul>
 *   <li>A line is the bytes before {@code \n}; a trailing {@code \r} is dropped after the limit check. A last
 *       line without {@code \n} is delivered by {@link #finish()}.</li>
 *   <li>A line of more than {@code maxLineBytes} bytes (counted before its {@code \n}) is never buffered past
 *       the limit: the sink's {@link Sink#tooLong(int)} is called as soon as the limit is crossed, the
 *       rest of the line is discarded up to the next {@code \n}, and then {@link Sink#skipped} tells its length
 *       and first bytes.</li>
 *   <li>Decoding happens per complete line, so a character split across reads is intact. Malformed UTF-8 is
 *       replaced: each malformed sequence becomes U+FFFD ({@link CodingErrorAction#REPLACE}).</li>
 * </ul>
 * Not thread-safe: one reader thread feeds one framer.
 */
public final class LineFramer {

    /** Receives the framed lines. */
    public interface Sink {
        /** A complete line, decoded. */
        void line(String line);

        /** A line crossed the limit; it will not be delivered. */
        void tooLong(int limit);

        /**
         * The end of a line that crossed the limit ({@code \n} or end of stream): its length in bytes and its
         * first (at most {@link #HEAD_BYTES}) bytes.
         */
        default void skipped(long length, byte[] head) {
        }
    }

    /** How many of an over-long line's first bytes {@link Sink#skipped} receives at most. */
    public static final int HEAD_BYTES = 256;

    /** The first capacity of the buffer that holds a line split across reads. */
    private static final int INITIAL_CAPACITY = 256;
    private static final byte[] NO_BYTES = new byte[0];

    private final int maxLineBytes;
    private final Sink sink;
    /** The start of a line split across reads; null while no line is pending, so an idle framer holds nothing. */
    private byte[] buffer;
    private int length;
    private boolean discarding;
    private long discardedLength;
    private byte[] discardedHead;

    /**
     * A framer delivering to {@code sink} lines of at most {@code maxLineBytes} bytes.
     *
     * @throws IllegalArgumentException if {@code maxLineBytes} is less than 1
     */
    public LineFramer(int maxLineBytes, Sink sink) {
        if (maxLineBytes < 1) {
            throw new IllegalArgumentException("maxLineBytes must be at least 1, got " + maxLineBytes);
        }
        this.maxLineBytes = maxLineBytes;
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    /**
     * Feeds {@code count} bytes read from the stream. A line that lies wholly within them is decoded from them
     * directly; only a line split across reads is copied, into a buffer that grows with it and is dropped once the
     * line is complete.
     */
    public void feed(byte[] bytes, int offset, int count) {
        int end = offset + count;
        int start = offset;
        for (int i = offset; i < end; i++) {
            if (bytes[i] == '\n') {
                if (length == 0 && !discarding && i - start <= maxLineBytes) {
                    emit(bytes, start, i - start);
                } else {
                    append(bytes, start, i - start);
                    endOfLine();
                }
                start = i + 1;
            }
        }
        append(bytes, start, end - start);
        if (length == 0) {
            buffer = null;
        }
    }

    /** End of stream: delivers a last line that had no {@code \n}. */
    public void finish() {
        if (discarding) {
            endDiscard();
        } else if (length > 0) {
            emit(buffer, 0, length);
        }
        length = 0;
        buffer = null;
    }

    /** The capacity of the buffer holding a pending line (0 when none is pending). */
    int bufferedCapacity() {
        return buffer == null ? 0 : buffer.length;
    }

    private void append(byte[] bytes, int offset, int count) {
        if (count == 0) {
            return;
        }
        if (discarding) {
            keepHead(bytes, offset, count);
            return;
        }
        if ((long) length + count > maxLineBytes) {
            discarding = true;
            discardedHead = NO_BYTES;
            if (buffer != null) {
                keepHead(buffer, 0, length);
            }
            keepHead(bytes, offset, count);
            length = 0;
            buffer = null;
            sink.tooLong(maxLineBytes);
            return;
        }
        if (buffer == null || length + count > buffer.length) {
            long grown = Math.max((long) length + count, buffer == null ? INITIAL_CAPACITY : 2L * buffer.length);
            byte[] larger = new byte[(int) Math.min(grown, maxLineBytes)];
            if (buffer != null) {
                System.arraycopy(buffer, 0, larger, 0, length);
            }
            buffer = larger;
        }
        System.arraycopy(bytes, offset, buffer, length, count);
        length += count;
    }

    private void endOfLine() {
        if (discarding) {
            endDiscard();
        } else {
            int pending = length;
            length = 0;
            emit(buffer, 0, pending);
        }
    }

    /** Counts {@code count} discarded bytes and keeps those among the first {@link #HEAD_BYTES} of the line. */
    private void keepHead(byte[] bytes, int offset, int count) {
        int kept = discardedHead.length;
        if (kept < HEAD_BYTES && count > 0) {
            int more = Math.min(HEAD_BYTES - kept, count);
            discardedHead = Arrays.copyOf(discardedHead, kept + more);
            System.arraycopy(bytes, offset, discardedHead, kept, more);
        }
        discardedLength += count;
    }

    private void endDiscard() {
        byte[] head = discardedHead;
        long skipped = discardedLength;
        discarding = false;
        discardedHead = null;
        discardedLength = 0;
        sink.skipped(skipped, head);
    }

    /** Delivers the line in {@code bytes[offset, offset + count)}, without a trailing {@code \r}. */
    private void emit(byte[] bytes, int offset, int count) {
        int end = count;
        if (end > 0 && bytes[offset + end - 1] == '\r') {
            end--;
        }
        // Malformed input becomes U+FFFD per malformed sequence, exactly as with CodingErrorAction.REPLACE.
        sink.line(new String(bytes, offset, end, StandardCharsets.UTF_8));
    }
}
