package org.metaruntime.supervisor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineFramerTest {

    private final List<String> events = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();

    private LineFramer framer(int limit) {
        return new LineFramer(limit, new LineFramer.Sink() {
            @Override
            public void line(String line) {
                events.add(line);
            }

            @Override
            public void tooLong(int limit) {
                events.add("<too long: " + limit + ">");
            }

            @Override
            public void skipped(long length, byte[] head) {
                skipped.add(length + ":" + new String(head, StandardCharsets.UTF_8));
            }
        });
    }

    private static void feed(LineFramer framer, byte[] bytes) {
        framer.feed(bytes, 0, bytes.length);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void splitsOnNewlineAndDropsTrailingCarriageReturn() {
        LineFramer framer = framer(100);
        feed(framer, utf8("a\nb\r\n\nc\rd\r\n"));
        assertThat(events).containsExactly("a", "b", "", "c\rd");
    }

    @Test
    void deliversLastLineWithoutNewlineAtFinish() {
        LineFramer framer = framer(100);
        feed(framer, utf8("one\ntwo"));
        assertThat(events).containsExactly("one");
        framer.finish();
        assertThat(events).containsExactly("one", "two");
        framer.finish();
        assertThat(events).containsExactly("one", "two");
    }

    @Test
    void joinsALineSplitAcrossFeeds() {
        LineFramer framer = framer(100);
        feed(framer, utf8("hel"));
        feed(framer, utf8("lo\nwor"));
        feed(framer, utf8("ld\n"));
        assertThat(events).containsExactly("hello", "world");
    }

    @Test
    void decodesACharacterSplitAcrossFeeds() {
        LineFramer framer = framer(100);
        for (byte b : utf8("smile \uD83D\uDE00\n")) {
            framer.feed(new byte[] {b}, 0, 1);
        }
        assertThat(events).containsExactly("smile \uD83D\uDE00");
    }

    @Test
    void replacesMalformedUtf8WithReplacementCharacter() {
        LineFramer framer = framer(100);
        feed(framer, new byte[] {'a', (byte) 0xFF, 'b', '\n'});
        feed(framer, new byte[] {(byte) 0xC3, '(', '\n'});
        feed(framer, new byte[] {'c', 'u', 't', ' ', (byte) 0xE2, (byte) 0x82, '\n'});
        feed(framer, new byte[] {(byte) 0xC0, (byte) 0xAF, '\n'});
        assertThat(events).containsExactly("a\uFFFDb", "\uFFFD(", "cut \uFFFD", "\uFFFD\uFFFD");
    }

    @Test
    void aLineAtTheLimitIsDelivered() {
        LineFramer framer = framer(5);
        feed(framer, utf8("12345\n"));
        assertThat(events).containsExactly("12345");
    }

    @Test
    void aCarriageReturnCountsTowardsTheLimit() {
        LineFramer framer = framer(5);
        feed(framer, utf8("12345\r\nok\n"));
        assertThat(events).containsExactly("<too long: 5>", "ok");
    }

    @Test
    void discardsALongerLineUpToItsNewlineAndReportsItOnce() {
        LineFramer framer = framer(5);
        feed(framer, utf8("ok\n123"));
        feed(framer, utf8("456"));
        assertThat(events).containsExactly("ok", "<too long: 5>");
        feed(framer, utf8("789"));
        feed(framer, utf8("0\nnext\n"));
        assertThat(events).containsExactly("ok", "<too long: 5>", "next");
    }

    @Test
    void aTooLongLastLineIsNotDeliveredAtFinish() {
        LineFramer framer = framer(3);
        feed(framer, utf8("abcdef"));
        framer.finish();
        assertThat(events).containsExactly("<too long: 3>");
    }

    @Test
    void aHugeLineIsNeverBuffered() {
        LineFramer framer = framer(1024);
        byte[] chunk = new byte[64 * 1024];
        java.util.Arrays.fill(chunk, (byte) 'x');
        for (int i = 0; i < 64; i++) {
            feed(framer, chunk);
        }
        feed(framer, utf8("\nafter\n"));
        assertThat(events).containsExactly("<too long: 1024>", "after");
    }

    @Test
    void aSkippedLineReportsItsLengthAndFirstBytesAtItsEnd() {
        LineFramer framer = framer(5);
        feed(framer, utf8("ok\n{\"id\""));
        feed(framer, utf8(":42,"));
        assertThat(skipped).isEmpty();
        feed(framer, utf8("\"r\":1}\nnext\n"));
        assertThat(skipped).containsExactly("15:{\"id\":42,\"r\":1}");
        assertThat(events).containsExactly("ok", "<too long: 5>", "next");
    }

    @Test
    void theHeadOfASkippedLineIsBounded() {
        LineFramer framer = framer(10);
        byte[] chunk = new byte[100_000];
        java.util.Arrays.fill(chunk, (byte) 'y');
        feed(framer, utf8("abc"));
        feed(framer, chunk);
        framer.finish();
        assertThat(skipped).hasSize(1);
        assertThat(skipped.get(0)).isEqualTo("100003:abc" + "y".repeat(LineFramer.HEAD_BYTES - 3));
    }

    @Test
    void rejectsANonPositiveLimit() {
        assertThatThrownBy(() -> framer(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void holdsABufferOnlyWhileALineIsSplitAcrossReads() {
        LineFramer framer = framer(1 << 20);
        feed(framer, utf8("whole line\n"));
        assertThat(framer.bufferedCapacity()).as("a line within one read is not copied").isZero();
        byte[] half = new byte[100_000];
        java.util.Arrays.fill(half, (byte) 'y');
        feed(framer, half);
        assertThat(framer.bufferedCapacity()).isGreaterThanOrEqualTo(100_000);
        feed(framer, half);
        feed(framer, utf8("\n"));
        assertThat(framer.bufferedCapacity()).as("dropped once the line is complete").isZero();
        assertThat(events).hasSize(2);
        assertThat(events.get(1)).hasSize(200_000);
    }
}
