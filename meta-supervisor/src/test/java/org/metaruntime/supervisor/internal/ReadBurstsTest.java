package org.metaruntime.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.supervisor.ProcessListener;

class ReadBurstsTest {

    private final List<String> events = new ArrayList<>();
    private final Runnable flush = () -> events.add("flush");

    /** Hands on {@code line}: the work it puts off, or does itself when it is the burst's last. */
    private void handle(String line, Runnable work) {
        ReadBursts.line();
        events.add(line);
        if (!ReadBursts.atEnd(work)) {
            work.run();
        }
    }

    @Test
    void workIsPutOffWhileMoreLinesFollowAndTheLastLineDoesIt() {
        ReadBursts.run(3, () -> {
            handle("line 1", flush);
            handle("line 2", flush);
            handle("line 3", flush);
        });
        assertThat(events).containsExactly("line 1", "line 2", "line 3", "flush", "flush");
    }

    @Test
    void workPutOffRunsOnceAtTheEndOfTheBurstInOrder() {
        Runnable other = () -> events.add("other");
        ReadBursts.run(5, () -> {
            handle("line 1", flush);
            handle("line 2", other);
            handle("line 3", flush);
            ReadBursts.run(1, () -> events.add("inner"));
        });
        assertThat(events).containsExactly("line 1", "line 2", "line 3", "inner", "flush", "other");
    }

    @Test
    void outsideABurstTheCallerDoesTheWorkItself() {
        assertThat(ReadBursts.atEnd(flush)).isFalse();
        assertThat(events).isEmpty();
    }

    @Test
    void workPutOffRunsWhenTheBurstThrows() {
        assertThatThrownBy(() -> ReadBursts.run(2, () -> {
            handle("line 1", flush);
            throw new IllegalStateException("a listener failed");
        })).hasMessage("a listener failed");
        assertThat(events).containsExactly("line 1", "flush");
        assertThat(ReadBursts.atEnd(flush)).as("the burst is over").isFalse();
    }

    @Test
    void theLinesOfOneReadOfStdoutAreOneBurst() {
        byte[] stdout = "a\nb\nc\n".getBytes(StandardCharsets.UTF_8);
        assertThat(ReadBursts.lines(stdout, stdout.length)).isEqualTo(3);
        ProcessListener listener = line -> {
            events.add(line);
            if (!ReadBursts.atEnd(flush)) {
                events.add("at once");
            }
        };
        new StdoutReader(new ByteArrayInputStream(stdout), 1024, listener).run();
        assertThat(events).containsExactly("a", "b", "c", "at once", "flush");
    }
}
