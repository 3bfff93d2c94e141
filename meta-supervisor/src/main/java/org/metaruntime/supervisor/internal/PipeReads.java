package org.metaruntime.supervisor.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Reads a child's pipe without holding a buffer while it waits. A reader waiting for a quiet child is blocked in a
 * one-byte {@link InputStream#read()} (the JDK's own stream buffer takes what the pipe holds); once that returns,
 * it borrows a {@value #CHUNK_BYTES}-byte chunk from a pool shared by all readers, fills it with what is already
 * there (never blocking with it), hands it to the sink, and gives it back before it waits again. A thousand idle
 * children therefore hold no read buffer at all, and the chunks exist only for the readers that are reading at
 * that moment ({@value #POOLED_CHUNKS} are kept between bursts). Thread-safe.
 */
public final class PipeReads {

    /** Receives what was read. */
    @FunctionalInterface
    public interface Sink {
        /** {@code count} bytes at the start of {@code bytes}, valid only during the call. */
        void accept(byte[] bytes, int count);
    }

    /** The size of a borrowed chunk. */
    static final int CHUNK_BYTES = 64 * 1024;
    /** How many chunks the pool keeps while no reader uses them. */
    static final int POOLED_CHUNKS = 4;

    private static final ArrayBlockingQueue<byte[]> POOL = new ArrayBlockingQueue<>(POOLED_CHUNKS);

    private PipeReads() {
    }

    /**
     * Reads {@code in} to its end, handing the bytes to {@code sink} in order.
     *
     * @throws IOException from the stream; what was read before reached the sink
     */
    public static void readToEnd(InputStream in, Sink sink) throws IOException {
        int first;
        while ((first = in.read()) >= 0) {
            byte[] chunk = borrow();
            try {
                chunk[0] = (byte) first;
                int count = 1;
                int available;
                while ((available = in.available()) > 0) {
                    if (count == chunk.length) {
                        sink.accept(chunk, count);
                        count = 0;
                    }
                    int read = in.read(chunk, count, Math.min(available, chunk.length - count));
                    if (read < 0) {
                        break;
                    }
                    count += read;
                }
                sink.accept(chunk, count);
            } finally {
                POOL.offer(chunk);
            }
        }
    }

    private static byte[] borrow() {
        byte[] chunk = POOL.poll();
        return chunk != null ? chunk : new byte[CHUNK_BYTES];
    }
}
