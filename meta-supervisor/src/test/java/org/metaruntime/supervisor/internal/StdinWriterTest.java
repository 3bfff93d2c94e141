package org.metaruntime.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;
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
    static class GatedStream extends OutputStream {
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

    /** Runs each task on the offering thread and counts them. */
    static final class CountingPool implements Executor {
        int count;

        @Override
        public void execute(Runnable task) {
            count++;
            task.run();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void writesInOrderAndClosesAfterTheQueue() {
        GatedStream stream = new GatedStream();
        StdinWriter writer = new StdinWriter("m", stream, pool, 1024);
        assertThat(writer.offer(bytes("a\n"))).isEqualTo(1);
        assertThat(writer.offer(bytes("b\n"))).isEqualTo(2);
        writer.close();
        assertRefused(() -> writer.offer(bytes("c\n")), "it is closed");
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
        writer.offer(bytes("12345"));
        writer.offer(bytes("67890"));
        assertRefused(() -> writer.offer(bytes("x")), "would exceed the limit of 10 bytes");
        stream.gate.countDown();
        await().until(() -> writer.queuedBytes() == 0);
        assertThat(writer.offer(bytes("x"))).isEqualTo(3);
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
        assertRefused(() -> writer.offer(bytes("c\n")), "it is closed");
    }

    @Test
    void anIdleWriterHoldsNoTask() {
        GatedStream stream = new GatedStream();
        stream.gate.countDown();
        CountingPool tasks = new CountingPool();
        StdinWriter writer = new StdinWriter("m", stream, tasks, 1024);
        assertThat(tasks.count).isZero();
        writer.offer(bytes("a\n"));
        writer.offer(bytes("b\n"));
        assertThat(tasks.count).isEqualTo(2);
        assertThat(stream.text()).isEqualTo("a\nb\n");
    }

    @Test
    void aLineAfterAnAcknowledgedOneIsWrittenOnTheOfferingThread() {
        GatedStream stream = new GatedStream();
        stream.gate.countDown();
        CountingPool tasks = new CountingPool();
        StdinWriter writer = new StdinWriter("m", stream, tasks, 8192);
        writer.offer(bytes("a\n"));
        assertThat(tasks.count).isEqualTo(1);
        writer.acknowledge(1);
        writer.offer(bytes("b\n"));
        assertThat(tasks.count).as("written inline, without a task").isEqualTo(1);
        writer.offer(bytes("c\n"));
        assertThat(tasks.count).as("line 2 may be unread, but lines 2 and 3 fit in any pipe").isEqualTo(1);
        writer.acknowledge(3);
        writer.offer(bytes("x".repeat(StdinWriter.PIPE_BUF) + "\n"));
        assertThat(tasks.count).as("a line over PIPE_BUF always goes to the task").isEqualTo(2);
        assertThat(stream.text()).startsWith("a\nb\nc\nxxx").hasSize(6 + StdinWriter.PIPE_BUF + 1);
    }

    @Test
    void linesGoInlineWhileTheUnreadOnesAndTheyFitInPipeBuf() {
        GatedStream stream = new GatedStream();
        stream.gate.countDown();
        CountingPool tasks = new CountingPool();
        StdinWriter writer = new StdinWriter("m", stream, tasks, 1 << 20);
        String line = "y".repeat(999) + "\n"; // 1,000 bytes
        writer.offer(bytes(line));
        assertThat(tasks.count).as("nothing acknowledged yet: the task writes it").isEqualTo(1);
        writer.acknowledge(1);
        for (int i = 0; i < 4; i++) {
            writer.offer(bytes(line)); // lines 2 to 5, unread: 1,000 to 4,000 bytes
        }
        assertThat(tasks.count).as("4,000 unread bytes fit in PIPE_BUF").isEqualTo(1);
        writer.offer(bytes(line)); // line 6 would make 5,000 unread bytes
        assertThat(tasks.count).as("5,000 unread bytes might not fit: the task writes it").isEqualTo(2);
        writer.acknowledge(3); // lines 4 to 6 (3,000 bytes) may be unread
        writer.offer(bytes(line));
        assertThat(tasks.count).as("4,000 unread bytes again").isEqualTo(2);
        writer.offer(bytes(line));
        assertThat(tasks.count).isEqualTo(3);
        writer.acknowledge(8);
        for (int i = 0; i < 4; i++) {
            writer.offer(bytes(line));
        }
        assertThat(tasks.count).as("every line read: the count starts again").isEqualTo(3);
        assertThat(stream.text()).isEqualTo(line.repeat(12));
    }

    @Test
    void aCallerThatStopsAcknowledgingGetsTheTaskOnceLinesPileUpUnread() {
        GatedStream stream = new GatedStream();
        stream.gate.countDown();
        CountingPool tasks = new CountingPool();
        StdinWriter writer = new StdinWriter("m", stream, tasks, 1 << 20);
        writer.offer(bytes("a\n"));
        writer.acknowledge(1);
        for (int i = 0; i < 2000; i++) {
            writer.offer(bytes("b\n"));
        }
        assertThat(tasks.count).as("4,096 bytes of 2-byte lines, then the count is dropped").isGreaterThan(1);
        int before = tasks.count;
        writer.acknowledge(1500);
        writer.offer(bytes("c\n"));
        assertThat(tasks.count).as("lines 1,501 to 2,002 unread and not counted: the task writes it").isEqualTo(before + 1);
        writer.acknowledge(2002);
        writer.offer(bytes("d\n"));
        assertThat(tasks.count).as("every line read").isEqualTo(before + 1);
    }

    @Test
    void acknowledgingALineNotYetOfferedChangesNothing() {
        GatedStream stream = new GatedStream();
        stream.gate.countDown();
        CountingPool tasks = new CountingPool();
        StdinWriter writer = new StdinWriter("m", stream, tasks, 1024);
        writer.acknowledge(5);
        writer.offer(bytes("a\n"));
        assertThat(tasks.count).isEqualTo(1);
    }

    @Test
    void linesOfferedDuringAnInlineWriteFollowItInOrderAndACloseWaitsForThem() throws Exception {
        StepStream stream = new StepStream();
        StdinWriter writer = new StdinWriter("m", stream, pool, 1024);
        stream.permits.release();
        writer.offer(bytes("a\n"));
        await().until(() -> stream.text().equals("a\n"));
        writer.acknowledge(1);
        Thread inline = new Thread(() -> writer.offer(bytes("b\n")));
        inline.start();
        await().until(() -> stream.writes.get() == 2); // the offering thread is inside its write
        assertThat(writer.offer(bytes("c\n"))).isEqualTo(3);
        writer.close();
        assertThat(stream.closed).isFalse();
        stream.permits.release(2);
        inline.join();
        await().until(() -> stream.closed);
        assertThat(stream.text()).isEqualTo("a\nb\nc\n");
    }

    /** A stream whose every write waits for a permit, like a pipe the child drains one line at a time. */
    static final class StepStream extends GatedStream {
        final Semaphore permits = new Semaphore(0);
        final AtomicInteger writes = new AtomicInteger();

        StepStream() {
            gate.countDown();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writes.incrementAndGet();
            permits.acquireUninterruptibly();
            super.write(b, off, len);
        }
    }

    private static void assertRefused(Runnable offer, String message) {
        assertThatThrownBy(offer::run).isInstanceOf(ProcessBoundaryException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(((ProcessBoundaryException) e).error()).isInstanceOf(ProcessBoundaryError.Io.class));
    }
}
