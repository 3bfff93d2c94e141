package org.metaruntime.supervisor.internal.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ProcessTableTest {

    private static final byte[] WITH_TOKEN = "A=1\0META_PROCESS_TOKEN=t-1\0".getBytes(StandardCharsets.UTF_8);

    /**
     * A process in the middle of execve reads an empty environment for a moment: the lookup reads it again instead
     * of taking it as "no token" (it did, kept that for the whole pass, and the stop ladder missed a re-parented
     * grandchild that was still exec'ing "sleep").
     */
    @Test
    @Timeout(30)
    void anEmptyEnvironmentOfALiveProcessIsReadAgain() throws Exception {
        assumeTrue(ProcessTable.available(), "needs /proc");
        Process live = new ProcessBuilder("sleep", "30").start();
        try {
            AtomicInteger reads = new AtomicInteger();
            ProcessTable table = table(live.pid(), pid -> reads.incrementAndGet() < 3 ? new byte[0] : WITH_TOKEN);
            assertThat(table.carriersOf("t-1", 0)).containsExactly(live.pid());
            assertThat(reads).hasValue(3);
            assertThat(table.carriersOf("t-1", 0)).containsExactly(live.pid());
            assertThat(reads).as("kept once read").hasValue(3);
        } finally {
            live.destroyForcibly();
            assertThat(live.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(live.toHandle().isAlive()).isFalse();
    }

    /** The empty environment of a process that is gone (or a zombie, or a kernel thread) is final: read once. */
    @Test
    @Timeout(30)
    void anEmptyEnvironmentOfAProcessThatIsGoneIsFinal() throws Exception {
        assumeTrue(ProcessTable.available(), "needs /proc");
        Process gone = new ProcessBuilder("true").start();
        assertThat(gone.waitFor(10, TimeUnit.SECONDS)).isTrue();
        AtomicInteger reads = new AtomicInteger();
        ProcessTable table = table(gone.pid(), pid -> {
            reads.incrementAndGet();
            return new byte[0];
        });
        assertThat(table.carriersOf("t-1", 0)).isEmpty();
        assertThat(table.carriersOf("t-1", 0)).isEmpty();
        assertThat(reads).hasValue(1);
    }

    private static ProcessTable table(long pid, java.util.function.Function<Long, byte[]> environ) {
        return new ProcessTable(System.nanoTime(), Map.of(), Map.of(pid, ProcessTable.startTicksOf(pid)), environ);
    }
}
