package org.metaruntime.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StderrTailTest {

    private static void append(StderrTail tail, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        tail.append(bytes, 0, bytes.length);
    }

    @Test
    void keepsEverythingWhileItFits() {
        StderrTail tail = new StderrTail(16);
        append(tail, "abc");
        append(tail, "def");
        assertThat(tail.text()).isEqualTo("abcdef");
        assertThat(tail.totalBytes()).isEqualTo(6);
    }

    @Test
    void keepsTheNewestBytesAcrossTheWrap() {
        StderrTail tail = new StderrTail(8);
        append(tail, "12345");
        append(tail, "6789");
        assertThat(tail.text()).isEqualTo("23456789");
        append(tail, "abc");
        assertThat(tail.text()).isEqualTo("56789abc");
        assertThat(tail.totalBytes()).isEqualTo(12);
    }

    @Test
    void aChunkLargerThanTheTailKeepsItsEnd() {
        StderrTail tail = new StderrTail(4);
        append(tail, "x");
        append(tail, "abcdefgh");
        assertThat(tail.text()).isEqualTo("efgh");
    }

    @Test
    void skipsACharacterCutAtTheStart() {
        StderrTail tail = new StderrTail(4);
        append(tail, "\u20AC\u20AC"); // two 3-byte characters; the tail keeps the last byte of the first
        assertThat(tail.text()).isEqualTo("\u20AC");
    }

    @Test
    void aZeroTailKeepsNothing() {
        StderrTail tail = new StderrTail(0);
        append(tail, "abc");
        assertThat(tail.text()).isEmpty();
        assertThat(tail.totalBytes()).isEqualTo(3);
    }

    @Test
    void theRingGrowsWithWhatIsWrittenUpToItsCapacity() {
        StderrTail tail = new StderrTail(64 * 1024);
        assertThat(tail.capacity()).as("a child that writes nothing costs nothing").isZero();
        append(tail, "started\n");
        assertThat(tail.capacity()).isLessThanOrEqualTo(256);
        StringBuilder lots = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            lots.append(i).append('\n');
        }
        append(tail, lots.toString());
        assertThat(tail.capacity()).isEqualTo(64 * 1024);
        String all = "started\n" + lots;
        assertThat(tail.text()).isEqualTo(all.substring(all.length() - 64 * 1024));
    }
}
