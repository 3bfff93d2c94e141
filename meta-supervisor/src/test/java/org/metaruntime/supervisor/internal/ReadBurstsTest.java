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

    @Test
    void workPutOffRunsOnceAtTheEndOfTheBurstInOrder() {
        Runnable other = () -> events.add("other");
        ReadBursts.run(() -> {
            events.add("line 1");
            assertThat(ReadBursts.atEnd(flush)).isTrue();
            events.add("line 2");
            assertThat(ReadBursts.atEnd(other)).isTrue();
            assertThat(ReadBursts.atEnd(flush)).isTrue();
            ReadBursts.run(() -> events.add("inner"));
        });
        assertThat(events).containsExactly("line 1", "line 2", "inner", "flush", "other");
    }

    @Test
    void outsideABurstTheCallerDoesTheWorkItself() {
        assertThat(ReadBursts.atEnd(flush)).isFalse();
        assertThat(events).isEmpty();
    }

    @Test
    void workPutOffRunsWhenTheBurstThrows() {
        assertThatThrownBy(() -> ReadBursts.run(() -> {
            ReadBursts.atEnd(flush);
            throw new IllegalStateException("a listener failed");
        })).hasMessage("a listener failed");
        assertThat(events).containsExactly("flush");
        assertThat(ReadBursts.atEnd(flush)).as("the burst is over").isFalse();
    }

    @Test
    void theLinesOfOneReadOfStdoutAreOneBurst() {
        byte[] stdout = "a\nb\nc\n".getBytes(StandardCharsets.UTF_8);
        ProcessListener listener = line -> {
            events.add(line);
            ReadBursts.atEnd(flush);
        };
        new StdoutReader(new ByteArrayInputStream(stdout), 1024, listener).run();
        assertThat(events).containsExactly("a", "b", "c", "flush");
    }
}
