package org.metaruntime.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class PipeReadsTest {

    /** Through a real pipe (cat), in bursts of every size, the bytes arrive whole and in order. */
    @Test
    @Timeout(60)
    void deliversEveryByteInOrderThroughARealPipe() throws Exception {
        Process cat = new ProcessBuilder("cat").start();
        try {
            byte[] data = new byte[3 * PipeReads.CHUNK_BYTES + 12_345];
            new Random(7).nextBytes(data);
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try (OutputStream out = cat.getOutputStream()) {
                    int at = 0;
                    int burst = 1;
                    while (at < data.length) {
                        int n = Math.min(burst, data.length - at);
                        out.write(data, at, n);
                        out.flush();
                        at += n;
                        burst = burst * 3 % 70_001 + 1;
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            try (InputStream in = cat.getInputStream()) {
                PipeReads.readToEnd(in, (bytes, count) -> {
                    assertThat(count).isPositive().isLessThanOrEqualTo(PipeReads.CHUNK_BYTES);
                    received.write(bytes, 0, count);
                });
            }
            writer.get(30, TimeUnit.SECONDS);
            assertThat(received.toByteArray()).isEqualTo(data);
        } finally {
            cat.destroyForcibly();
            assertThat(cat.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
