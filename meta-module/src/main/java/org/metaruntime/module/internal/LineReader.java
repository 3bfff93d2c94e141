package org.metaruntime.module.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits an input stream into lines of bytes ({@code \n}, with an optional {@code \r} before it), never holding
 * more than the line limit: a longer line is read to its end and reported as too long. Not thread-safe.
 */
final class LineReader {

    /** One line, or the news that it was too long (then {@code bytes} is empty). */
    record Line(byte[] bytes, boolean tooLong, long length) {
    }

    private final InputStream in;
    private final int maxBytes;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private byte[] line = new byte[1024];
    private int lineLength;

    LineReader(InputStream in, int maxBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
    }

    /** The next line, or {@code null} at end of input (a last line without {@code \n} is still a line). */
    Line next() throws IOException {
        lineLength = 0;
        long seen = 0;
        boolean tooLong = false;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    if (seen == 0) {
                        return null;
                    }
                    return finish(tooLong, seen);
                }
            }
            int start = position;
            int end = start;
            while (end < limit && buffer[end] != '\n') {
                end++;
            }
            int count = end - start;
            seen += count;
            if (!tooLong) {
                if (lineLength + count > maxBytes) {
                    tooLong = true;
                    lineLength = 0;
                } else {
                    append(start, count);
                }
            }
            if (end < limit) {
                position = end + 1;
                return finish(tooLong, seen);
            }
            position = limit;
        }
    }

    private Line finish(boolean tooLong, long seen) {
        if (tooLong) {
            return new Line(new byte[0], true, seen);
        }
        int length = lineLength;
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        return new Line(Arrays.copyOf(line, length), false, seen);
    }

    private void append(int start, int count) {
        if (lineLength + count > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + count));
        }
        System.arraycopy(buffer, start, line, lineLength, count);
        lineLength += count;
    }
}
