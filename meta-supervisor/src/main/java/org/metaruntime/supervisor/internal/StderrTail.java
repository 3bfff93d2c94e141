package org.metaruntime.supervisor.internal;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The newest bytes of a child's stderr, in a ring of at most {@code capacity} bytes that grows with what the
 * child writes (a child that writes nothing to stderr costs nothing). Decoded on demand as UTF-8 (malformed
 * sequences become U+FFFD); when older bytes were dropped, the continuation bytes of a character cut at the start
 * are skipped. Thread-safe.
 */
public final class StderrTail {

    private static final byte[] EMPTY = new byte[0];
    private static final int FIRST_CAPACITY = 256;

    private final int maxCapacity;
    private byte[] ring = EMPTY;
    private int start;
    private int size;
    private long total;

    public StderrTail(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative, got " + capacity);
        }
        this.maxCapacity = capacity;
    }

    /** Appends bytes, dropping the oldest when full. */
    public synchronized void append(byte[] bytes, int offset, int count) {
        total += count;
        if (maxCapacity == 0) {
            return;
        }
        if (ring.length < maxCapacity && size + count > ring.length) {
            grow(size + count);
        }
        int capacity = ring.length;
        if (count >= capacity) {
            System.arraycopy(bytes, offset + count - capacity, ring, 0, capacity);
            start = 0;
            size = capacity;
            return;
        }
        int end = (start + size) % capacity;
        int first = Math.min(count, capacity - end);
        System.arraycopy(bytes, offset, ring, end, first);
        System.arraycopy(bytes, offset + first, ring, 0, count - first);
        int overflow = size + count - capacity;
        if (overflow > 0) {
            start = (start + overflow) % capacity;
            size = capacity;
        } else {
            size += count;
        }
    }

    /** The ring's capacity now (it grows up to the capacity given at construction). */
    synchronized int capacity() {
        return ring.length;
    }

    private void grow(int needed) {
        int grown = (int) Math.min(maxCapacity, Math.max((long) needed, Math.max(FIRST_CAPACITY, 2L * ring.length)));
        byte[] larger = new byte[grown];
        int first = Math.min(size, ring.length - start);
        System.arraycopy(ring, start, larger, 0, first);
        System.arraycopy(ring, 0, larger, first, size - first);
        ring = larger;
        start = 0;
    }

    /** How many bytes were appended in total (kept or dropped). */
    public synchronized long totalBytes() {
        return total;
    }

    /** The kept bytes, oldest first. */
    public synchronized byte[] bytes() {
        byte[] copy = new byte[size];
        int first = Math.min(size, ring.length - start);
        System.arraycopy(ring, start, copy, 0, first);
        System.arraycopy(ring, 0, copy, first, size - first);
        return copy;
    }

    /** The kept bytes as UTF-8 text. */
    public String text() {
        byte[] bytes;
        boolean truncated;
        synchronized (this) {
            bytes = bytes();
            truncated = total > size;
        }
        int from = 0;
        while (truncated && from < bytes.length && from < 3 && (bytes[from] & 0xC0) == 0x80) {
            from++;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes, from, bytes.length - from))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
