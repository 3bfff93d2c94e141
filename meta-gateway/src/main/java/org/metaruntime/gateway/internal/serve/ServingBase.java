package org.metaruntime.gateway.internal.serve;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.metaruntime.gateway.Serving;

/**
 * What every transport's {@link Serving} shares: one start-up path ({@link #start(ServingBase)}: begin serving,
 * or release what was built and rethrow) and the end that {@link #awaitEnd()} waits for. Thread-safe.
 */
public abstract class ServingBase implements Serving {

    private final CountDownLatch ended = new CountDownLatch(1);

    /** Starts serving; returns once it serves. */
    protected abstract void begin() throws IOException;

    /** Releases what the constructor built when {@link #begin()} failed. */
    protected abstract void release();

    /** Begins {@code serving}; when that fails, releases it, marks it ended and rethrows. */
    protected static <S extends ServingBase> S start(S serving) throws IOException {
        try {
            serving.begin();
        } catch (IOException | RuntimeException e) {
            try {
                serving.release();
            } catch (RuntimeException releasing) {
                e.addSuppressed(releasing);
            }
            serving.ended();
            throw e;
        }
        return serving;
    }

    /** Marks the transport ended: {@link #awaitEnd()} returns. */
    protected final void ended() {
        ended.countDown();
    }

    @Override
    public final void awaitEnd() throws InterruptedException {
        ended.await();
    }

    @Override
    public final boolean awaitEnd(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
