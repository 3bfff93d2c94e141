package org.metaruntime.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StdinWriterTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void shutdown() {
        pool.shutdownNow();
    }

    /** A stream that blocks every write until released, like a full pipe. */
    static final class GatedStream extends OutputStream {
        final CountDownLatch gate = new CountDownLatch(1);
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        volatile boolean closed;
        volatile boolean failing;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                gate.await();
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            if (failing) {
                throw new IOException("Broken pipe");
            }
            synchronized (written) {
                written.write(b, off, len);
            }
        }

        @Override
        public void close() {
            closed = true;
        }

        String text() {
            synchronized (written) {
                return written.toString(StandardCharsets.UTF_8);
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writesInOrderAndClosesAfterTheQueue() {
        GatedStream stream = new GatedStream();
        StdinWriter writer = new StdinWriter("m", stream, pool, 1024);
        assertThat(writer.offer(bytes("a\n"))).isNull();
        assertThat(writer.offer(bytes("b\n"))).isNull();
        writer.close();
        assertThat(writer.offer(bytes("c\n"))).isEqualTo(StdinWriter.Refusal.CLOSED);
        assertThat(stream.closed).isFalse();
        stream.gate.countDown();
        await().until(() -> stream.closed);
        assertThat(stream.text()).isEqualTo("a\nb\n");
        assertThat(writer.isClosed()).isTrue();
        assertThat(writer.queuedBytes()).isZero();
    }

    @Test
    void aStalledStreamNeverBlocksOfferAndTheQueueIsBoundedByBytes() {
        GatedStream stream = new GatedStream();
        StdinWriter writer = new StdinWriter("m", stream, pool, 10);
        assertThat(writer.offer(bytes("12345"))).isNull();
        assertThat(writer.offer(bytes("67890"))).isNull();
        assertThat(writer.offer(bytes("x"))).isEqualTo(StdinWriter.Refusal.QUEUE_FULL);
        stream.gate.countDown();
        await().until(() -> writer.queuedBytes() == 0);
        assertThat(writer.offer(bytes("x"))).isNull();
        await().until(() -> stream.text().equals("1234567890x"));
    }

    @Test
    void aFailedWriteClosesTheWriterAndDropsTheQueue() {
        GatedStream stream = new GatedStream();
        stream.failing = true;
        StdinWriter writer = new StdinWriter("m", stream, pool, 1024);
        writer.offer(bytes("a\n"));
        writer.offer(bytes("b\n"));
        stream.gate.countDown();
        await().until(writer::isClosed);
        assertThat(writer.queuedBytes()).isZero();
        assertThat(stream.closed).isTrue();
        assertThat(writer.offer(bytes("c\n"))).isEqualTo(StdinWriter.Refusal.CLOSED);
    }

    @Test
    void anIdleWriterHoldsNoTask() {
        GatedStream stream = new GatedStream();
        stream.gate.countDown();
        int[] tasks = new int[1];
        StdinWriter writer = new StdinWriter("m", stream, task -> {
            tasks[0]++;
            task.run();
        }, 1024);
        assertThat(tasks[0]).isZero();
        writer.offer(bytes("a\n"));
        writer.offer(bytes("b\n"));
        assertThat(tasks[0]).isEqualTo(2);
        assertThat(stream.text()).isEqualTo("a\nb\n");
    }
}
