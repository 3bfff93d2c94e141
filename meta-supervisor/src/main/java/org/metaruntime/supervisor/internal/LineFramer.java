package org.metaruntime.supervisor.internal;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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

    private static final int INITIAL_CAPACITY = 8 * 1024;
    private static final int RETAINED_CAPACITY = 64 * 1024;

    private final int maxLineBytes;
    private final Sink sink;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
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
        this.buffer = new byte[Math.min(INITIAL_CAPACITY, maxLineBytes)];
    }

    /** Feeds {@code count} bytes read from the stream. */
    public void feed(byte[] bytes, int offset, int count) {
        int end = offset + count;
        int start = offset;
        for (int i = offset; i < end; i++) {
            if (bytes[i] == '\n') {
                append(bytes, start, i - start);
                endOfLine();
                start = i + 1;
            }
        }
        append(bytes, start, end - start);
    }

    /** End of stream: delivers a last line that had no {@code \n}. */
    public void finish() {
        if (discarding) {
            endDiscard();
        } else if (length > 0) {
            emit();
        }
        length = 0;
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
            discardedHead = new byte[0];
            keepHead(buffer, 0, length);
            keepHead(bytes, offset, count);
            length = 0;
            releaseLargeBuffer();
            sink.tooLong(maxLineBytes);
            return;
        }
        if (length + count > buffer.length) {
            long grown = Math.max((long) length + count, 2L * buffer.length);
            byte[] larger = new byte[(int) Math.min(grown, maxLineBytes)];
            System.arraycopy(buffer, 0, larger, 0, length);
            buffer = larger;
        }
        System.arraycopy(bytes, offset, buffer, length, count);
        length += count;
    }

    private void endOfLine() {
        if (discarding) {
            endDiscard();
        } else {
            emit();
        }
    }

    /** Counts {@code count} discarded bytes and keeps those among the first {@link #HEAD_BYTES} of the line. */
    private void keepHead(byte[] bytes, int offset, int count) {
        int kept = discardedHead.length;
        if (kept < HEAD_BYTES && count > 0) {
            int more = Math.min(HEAD_BYTES - kept, count);
            discardedHead = java.util.Arrays.copyOf(discardedHead, kept + more);
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

    private void emit() {
        int end = length;
        if (end > 0 && buffer[end - 1] == '\r') {
            end--;
        }
        String line = decode(buffer, end);
        length = 0;
        releaseLargeBuffer();
        sink.line(line);
    }

    private String decode(byte[] bytes, int count) {
        try {
            return decoder.decode(ByteBuffer.wrap(bytes, 0, count)).toString();
        } catch (CharacterCodingException e) {
            // Unreachable with REPLACE on both actions.
            throw new IllegalStateException(e);
        }
    }

    private void releaseLargeBuffer() {
        if (buffer.length > RETAINED_CAPACITY) {
            buffer = new byte[Math.min(INITIAL_CAPACITY, maxLineBytes)];
        }
    }
}
